LC_ALL=C sort inferno/sample-default.txt | diff - sample.out || true
