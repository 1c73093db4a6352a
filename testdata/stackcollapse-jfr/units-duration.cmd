stackcollapse-jfr --event ThreadPark units.txt
