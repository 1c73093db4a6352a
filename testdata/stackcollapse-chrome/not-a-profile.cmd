# JSON, but not a profile: a trace-event array, an object without nodes,
# the old format (a "head" tree), more after the object, a key given twice
echo '[{"name":"ProfileChunk"}]' | stackcollapse-chrome
echo '{"traceEvents":[]}' | stackcollapse-chrome
echo '{"head":{"functionName":"(root)","children":[]},"startTime":0}' | stackcollapse-chrome
echo '{"nodes":[],"samples":[]} {}' | stackcollapse-chrome
echo '{"nodes":[],"samples":[],"nodes":[]}' | stackcollapse-chrome
echo '{"nodes":[],"samples":[]}' | stackcollapse-chrome; echo "status $?"
