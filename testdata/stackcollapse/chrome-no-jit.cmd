# the front door takes the reader's options: the same bytes as the tool
stackcollapse --no-jit ../stackcollapse-chrome/cpu.cpuprofile | cmp - ../stackcollapse-chrome/cpu-no-jit.out && echo same
