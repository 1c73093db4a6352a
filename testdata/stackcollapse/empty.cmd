stackcollapse </dev/null
