// Allocates records and arrays and keeps them alive, so that the sampling
// heap profile of node --heap-prof names these functions.
function makeRecord(i) {
  return { id: i, name: 'item-' + i, tags: ['a', 'b', String(i % 7)] };
}
function buildTable(n) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(makeRecord(i));
  return rows;
}
function buildArrays(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(new Array(256).fill(i));
  return out;
}
globalThis.keep = [buildTable(20000), buildArrays(400)];
console.log(globalThis.keep[0].length + globalThis.keep[1].length);
