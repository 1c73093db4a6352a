stackcollapse-vsprof --frobnicate
