# a bad unit line is said once, in its place, whether the file is sorted
# or not (an unsorted one is read twice: is it sorted, then its stacks)
printf 'b;c 2\n# unit=bo gus 0\na;b 1\n' > unsorted.tmp
printf '# unit=bo gus 0\na;b 1\nb;c 2\n' > sorted.tmp
printf 'b;c 2\n# unit=seconds 0\n# unit=bytes 0\na;b 1\n' > second.tmp
foldmerge unsorted.tmp sorted.tmp
foldmerge second.tmp; echo "status $?"
rm -f unsorted.tmp sorted.tmp second.tmp
