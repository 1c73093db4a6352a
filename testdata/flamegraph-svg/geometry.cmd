flamegraph-svg --no-javascript --width 600 --height 20 --fontsize 10 --fontwidth 0.5 --fonttype "DejaVu Sans Mono" --bgcolors "#102030" small.folded | head -n 8
