# blank lines only: no stack, an error; --focus, given none, says nothing
printf '\n\n  \n' | foldfilter --focus main
