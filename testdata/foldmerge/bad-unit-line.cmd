# a bad unit line is said once, in its place, whether the file is sorted
# or not (an unsorted one is read twice: is it sorted, then its stacks);
# the files in a directory of this run's, named the same in every run
d=bad-unit-line.$$ && mkdir "$d" && cd "$d" || exit 1
printf 'b;c 2\n# unit=bo gus 0\na;b 1\n' > unsorted
printf '# unit=bo gus 0\na;b 1\nb;c 2\n' > sorted
printf 'b;c 2\n# unit=seconds 0\n# unit=bytes 0\na;b 1\n' > second
foldmerge unsorted sorted
foldmerge second; echo "status $?"
cd .. && rm -rf "$d"
