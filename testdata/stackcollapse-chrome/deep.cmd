# a chain of 5000 nodes, a sample on every 1000th: those deeper than 4096
# frames are dropped
python3 -c '
n = 5000
print("{\"nodes\":[" + ",".join("{\"id\":%d,\"callFrame\":{\"functionName\":\"%s\"},\"children\":[%s]}" % (i, "(root)" if i == 1 else "f", i + 1 if i < n else "") for i in range(1, n + 1)) + "],\"samples\":[" + ",".join(str(i) for i in range(1000, n + 1, 1000)) + "]}")' |
stackcollapse-chrome | awk '{ print split($1, f, ";") " frames", $NF }'
