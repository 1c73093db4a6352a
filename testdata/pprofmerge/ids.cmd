# ids that name nothing, each told where it is: sample 2's location 0 too; sparse ids found by search
for f in noloc nofunc nomap locid0 sparse; do pprofmerge ../pprof2folded/bad/$f.pb | pprof2folded; echo "exit $?"; done 2>&1
