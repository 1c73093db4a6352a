# 3,799 samples, 1,203 frames, 456 of them 0 pixels wide
svg2folded inferno-2019.svg.gz
