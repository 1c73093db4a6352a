printf "main;work 12\n" | stackcollapse-chrome-tracing
