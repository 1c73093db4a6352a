stackcollapse-vtune --frobnicate
