// async/await, timers and garbage: the process waits between bursts of
// work, so that (idle), (program) and (garbage collector) show up.
'use strict';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function garbage(n) {
	const keep = [];
	for (let i = 0; i < n; i++) keep.push({ i, s: 'v' + i, a: [i, i + 1] });
	return keep.length;
}
async function fetchLike(id) {
	await sleep(5);
	return JSON.stringify({ id, items: Array.from({ length: 2000 }, (_, i) => i * id) }).length;
}
async function worker(id) {
	let total = 0;
	for (let round = 0; round < 12; round++) {
		total += await fetchLike(id + round);
		total += garbage(30000);
	}
	return total;
}
async function main() {
	const results = await Promise.all([worker(1), worker(2), worker(3)]);
	await new Promise((resolve) => setImmediate(resolve));
	setTimeout(() => garbage(50000), 10);
	await sleep(30);
	return results.reduce((a, b) => a + b, 0);
}
main().then((t) => console.log(t > 0 ? 'done' : 'none'));
