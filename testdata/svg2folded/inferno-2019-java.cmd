svg2folded inferno-2019-java.svg
