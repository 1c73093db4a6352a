// Work for node's own trace events: CPU-bound named functions, timers,
// a promise chain, a file read and a child-free fs.stat, so that the v8,
// node and node.async_hooks categories all have something to say.
'use strict';
const fs = require('fs');
const { performance } = require('perf_hooks');
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function churn(n) {
	const keep = [];
	for (let i = 0; i < n; i++) keep.push({ i, s: 'v' + i });
	return keep.length;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function round(k) {
	performance.mark('round-' + k);
	await sleep(2);
	const n = fib(20) + churn(20000);
	await fs.promises.stat(__filename);
	performance.measure('round ' + k, 'round-' + k);
	return n;
}
async function main() {
	let total = 0;
	for (let k = 0; k < 4; k++) total += await round(k);
	fs.readFile(__filename, (err, data) => {
		console.log(err ? 'error' : total > 0 && data.length > 0 ? 'done' : 'none');
	});
}
main();
