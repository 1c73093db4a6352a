# cpu-few.txt: the first 8 jdk.ExecutionSample events of cpu.txt.gz;
# 2 of them are cut, fewer than half: still told
stackcollapse-jfr cpu-few.txt
