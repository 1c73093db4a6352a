stackcollapse-jfr json.txt
