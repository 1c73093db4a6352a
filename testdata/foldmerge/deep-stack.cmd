{ for n in 1 2; do printf f0; awk 'BEGIN { for (i = 1; i < 100000; i++) printf ";f%d", i }'; echo " $n"; done; } | foldmerge | tail -c 40
