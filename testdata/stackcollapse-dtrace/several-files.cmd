stackcollapse-dtrace java.txt java.txt hex-addresses.txt
