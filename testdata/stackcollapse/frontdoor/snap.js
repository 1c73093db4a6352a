// Builds a small object graph and writes a V8 heap snapshot of the process.
class Link {
  constructor(name, next) {
    this.name = name;
    this.next = next;
  }
}
let list = null;
for (let i = 0; i < 100; i++) list = new Link('link-' + i, list);
globalThis.demo = { list, table: new Map([['a', 1], ['b', 2]]) };
require('v8').writeHeapSnapshot('snapshot.heapsnapshot');
