module pprofgen

go 1.19
