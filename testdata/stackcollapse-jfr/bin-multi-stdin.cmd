stackcollapse-jfr --event NativeMethodSample < binary/multi.jfr
