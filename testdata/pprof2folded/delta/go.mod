module pprofdelta

go 1.19
