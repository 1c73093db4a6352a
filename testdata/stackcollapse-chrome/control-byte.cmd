# a NUL where JSON text has none: refused before the rest is read
printf '{"nodes":[\000' | stackcollapse-chrome
