# A count that overflows stops the input at its sample (line 7): the
# line after it that is not one (line 10) is not warned about.
printf 'a 1 [000] 1.0: 18446744073709551615 cycles: \n\t1 f (x)\n\na 1 [000] 1.1: 1 cycles: \n\t2 g (x)\n\na 1 [000] 1.2: 1 cycles: \n\t1 f (x)\n\nthis is not a line\n\na 1 [000] 1.3: 5 cycles: \n\t1 f (x)\n\n' | stackcollapse-perf
# The same with the unrecognized line first: its warning, then the error.
printf 'a 1 [000] 1.0: 18446744073709551615 cycles: \n\t1 f (x)\n\nthis is not a line\n\na 1 [000] 1.2: 1 cycles: \n\t1 f (x)\n\n' | stackcollapse-perf
