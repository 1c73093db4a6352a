# a frame's annotation (perf --all, stackcollapse-chrome) picks its colour
# and is left out of its title and label, as flamegraph.pl and inferno do;
# only the four annotations, and only at the end of a name
printf 'main;read_[k];run_[j];add_[i];wake_[w];odd_[x];mid_[k]x 1\n' | flamegraph-svg --no-javascript --colors java | grep -o -e '<title>[^(]*' -e 'fill="rgb([0-9]*' -e '<text x=[^>]*>[^<]*' | sed 's/<text x="[^"]*" y="[^"]*">/text /'
