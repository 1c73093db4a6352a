module gocapture

go 1.19
