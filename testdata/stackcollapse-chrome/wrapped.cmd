# the shapes of the DevTools protocol: {"profile":...} and a reply
printf '{"profile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"x"}}],"samples":[2,2]}}' | stackcollapse-chrome
printf '{"id":3,"result":{"profile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"y"}}],"samples":[2]}},"sessionId":"AB"}' | stackcollapse-chrome
