LC_ALL=C sort inferno/sample-no-modules.txt | diff - sample-no-modules.out || true
