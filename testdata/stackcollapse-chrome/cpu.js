// CPU-bound: a few named functions that call each other for a while.
'use strict';
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function isPrime(n) {
	for (let d = 2; d * d <= n; d++)
		if (n % d === 0) return false;
	return n > 1;
}
function countPrimes(limit) {
	let c = 0;
	for (let i = 2; i < limit; i++) if (isPrime(i)) c++;
	return c;
}
function sortRandom(n) {
	const a = [];
	for (let i = 0; i < n; i++) a.push((i * 7919) % 10007);
	return a.sort((x, y) => x - y)[0];
}
function main(ms) {
	const end = Date.now() + ms;
	let acc = 0;
	while (Date.now() < end) {
		acc += fib(22);
		acc += countPrimes(20000);
		acc += sortRandom(20000);
	}
	return acc;
}
console.log(main(Number(process.argv[2] || 1500)) > 0 ? 'done' : 'none');
