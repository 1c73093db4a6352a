stackcollapse-jfr --weight "" units.txt
