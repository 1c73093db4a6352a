# detected as JFR, which then says to print text
stackcollapse ../stackcollapse-jfr/json.txt
