stackcollapse-jfr --event
