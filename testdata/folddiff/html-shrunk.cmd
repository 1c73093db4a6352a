# 494 samples before, 324 after: a's share fell 29.86pp (blue, its label
# white) and b's grew as much (red), as the table says; in counts b grew by
# 9% of the total after only, and would be pale
folddiff --report --format html shrunk-before.folded shrunk-after.folded | grep -e '<td class="fn">[ab]</td><td>[0-9.]*%' -e '<title>[ab] '
