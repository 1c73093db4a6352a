head -c 300000 binary/multi.jfr | stackcollapse-jfr --event NativeMethodSample
