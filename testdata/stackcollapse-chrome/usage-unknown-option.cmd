stackcollapse-chrome --frobnicate
