printf 'fleet/checkout/cpu.folded\0fleet/ads/cpu.folded\0' | foldcost -0 --files-from - --by function --top 3 --format tsv
