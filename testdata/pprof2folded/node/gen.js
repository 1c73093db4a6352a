// Writes node-wall.pb.gz and node-heap.pb.gz with @datadog/pprof: pprof
// profiles from a producer that is not Go (see ../gen.sh).
'use strict';
const fs = require('fs');
const pprof = require('@datadog/pprof');

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function spin(ms) {
  const end = Date.now() + ms;
  let s = 0;
  while (Date.now() < end) s += fib(18);
  return s;
}

function allocate() {
  const keep = [];
  for (let i = 0; i < 20000; i++) keep.push({ i, a: new Array(32).fill(i) });
  return keep;
}

async function main() {
  pprof.time.start({ intervalMicros: 2000, durationMillis: 60000 });
  spin(500);
  const wall = pprof.time.stop();
  fs.writeFileSync('node-wall.pb.gz', await pprof.encode(wall));

  pprof.heap.start(64 * 1024, 64);
  const kept = allocate();
  const heap = pprof.heap.profile();
  pprof.heap.stop();
  fs.writeFileSync('node-heap.pb.gz', await pprof.encode(heap));
  return kept.length;
}

main();
