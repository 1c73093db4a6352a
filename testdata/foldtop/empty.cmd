foldtop < /dev/null
