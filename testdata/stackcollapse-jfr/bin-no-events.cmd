stackcollapse-jfr --event ThreadPark binary/cpu.jfr
