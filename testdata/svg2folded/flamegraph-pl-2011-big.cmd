# 300 stacks, 7,464 frames in hash order, many 0.1 pixel wide
svg2folded flamegraph-pl-2011-big.svg.gz
