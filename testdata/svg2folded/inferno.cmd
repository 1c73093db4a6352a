svg2folded inferno.svg
