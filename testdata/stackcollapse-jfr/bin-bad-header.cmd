printf 'FLR\000\000\002\000\000\000\000\000\000\000\000\100' | stackcollapse-jfr
