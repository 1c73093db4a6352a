awk 'BEGIN { print "<svg>"; for (i = 0; i <= 8192; i++) printf "<g><title>f%d (1 samples, 1%%)</title><rect x=\"0\" y=\"%d\" width=\"1\"/></g>\n", i, i; print "</svg>" }' | svg2folded
