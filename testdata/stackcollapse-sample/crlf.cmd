sed 's/$/\r/' sample.txt | stackcollapse-sample
