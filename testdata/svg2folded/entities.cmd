printf '<svg><g><title>a&#59;b&amp;&lt;c&#10;d (3 samples, 100%%)</title><rect x="0" y="0" width="10"/></g></svg>' | svg2folded
printf '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e "boom">]><svg><g><title>a&e; (3 samples, 100%%)</title><rect x="0" y="0" width="10"/></g></svg>' | svg2folded
