# folded counts at the bounds of an unsigned 64-bit integer: exact, and
# one past them a bad line
printf 'a;zero 0\na;max_less_10 18446744073709551605\na;max_less_1 18446744073709551614\na;max 18446744073709551615\na;max_plus_1 18446744073709551616\na;ok 3\n' | stackcollapse --format folded
