stackcollapse-jfr --threads --event jdk.NativeMethodSample cpu-deep.txt.gz
