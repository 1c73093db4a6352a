# cpu-most.txt: 8 jdk.ExecutionSample events of cpu.txt.gz (jfr print at
# its default depth), 7 of them cut ("..." and no thread entry point)
stackcollapse-jfr cpu-most.txt
