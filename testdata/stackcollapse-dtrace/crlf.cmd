sed 's/$/\r/' hex-addresses.txt | stackcollapse-dtrace
