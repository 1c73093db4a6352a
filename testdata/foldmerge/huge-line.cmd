{ for n in 3 4; do printf root; awk 'BEGIN { for (i = 0; i < 600000; i++) printf ";frame_number_%d", i % 977 }'; echo " $n"; done; } | foldmerge | cksum
