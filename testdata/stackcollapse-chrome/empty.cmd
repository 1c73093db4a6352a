stackcollapse-chrome < /dev/null
