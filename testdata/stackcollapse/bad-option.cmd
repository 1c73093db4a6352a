stackcollapse --frobnicate
