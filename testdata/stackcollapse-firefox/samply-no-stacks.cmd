stackcollapse-firefox public/samply-counters-sorted-processes-v64.json
