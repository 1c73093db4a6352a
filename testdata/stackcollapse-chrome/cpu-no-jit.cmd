# no mark on the functions of the profiled scripts: the names V8 gives
stackcollapse-chrome --no-jit cpu.cpuprofile
