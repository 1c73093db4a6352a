# UTF-16 text with a byte order mark (PowerShell's "> file"), little- and
# big-endian, gzipped too, read as UTF-8: "fée" and a character past the
# BMP (a surrogate pair) come out whole
printf '\377\376m\000;\000f\000\351\000e\000 \0003\000\r\000\n\000m\000;\000\075\330\045\335 \0002\000\r\000\n\000' | stackcollapse
printf '\376\377\000m\000;\000b\000 \0004\000\n' | stackcollapse
printf '\377\376m\000;\000z\000 \0001\000\n\000' | gzip | stackcollapse
