stackcollapse --detect *.json *.gz public/simple.json public/simple-object.json ../stackcollapse-chrome/cpu.cpuprofile ../stackcollapse-chrome/devtools.json
