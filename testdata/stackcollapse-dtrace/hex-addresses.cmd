stackcollapse-dtrace hex-addresses.txt
