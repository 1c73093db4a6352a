# comment lines above folded stacks ("# perf record -g ..."), as other
# readers of folded stacks take them: skipped, not bad lines
printf '# perf record -F 99 -g -- ./app\n# host web1\nmain;a 3\nmain;b 2\n' | stackcollapse
printf '# perf record -F 99 -g -- ./app\nmain;a 3\n' | stackcollapse --format folded
