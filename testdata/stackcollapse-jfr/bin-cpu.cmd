stackcollapse-jfr binary/cpu.jfr
