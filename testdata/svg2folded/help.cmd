svg2folded --help
