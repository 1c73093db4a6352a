printf "labels.pb.gz\\n" | pprof2folded --files-from - cpu.pb.gz
