// Anonymous functions, closures, methods and a class: names that are
// empty in the profile, or come from object literals.
'use strict';
const ops = [
	function (x) { let s = 0; for (let i = 0; i < x; i++) s += i % 7; return s; },
	(x) => { let s = 1; for (let i = 1; i < x; i++) s = (s * i) % 1000003; return s; },
];
function makeCounter(step) {
	let n = 0;
	return function () {
		for (let i = 0; i < 20000; i++) n += step;
		return n;
	};
}
class Shape {
	constructor(k) { this.k = k; }
	area() { let a = 0; for (let i = 0; i < 30000; i++) a += Math.sqrt(i * this.k); return a; }
}
const table = {
	hash: function (s) { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return h; },
};
const end = Date.now() + Number(process.argv[2] || 1500);
const counter = makeCounter(3);
let acc = 0;
while (Date.now() < end) {
	ops.forEach((f) => { acc += f(30000); });
	acc += counter();
	acc += new Shape(2).area();
	acc += table.hash('x'.repeat(20000));
	(() => { for (let i = 0; i < 20000; i++) acc ^= i; })();
}
console.log(acc !== 0 ? 'done' : 'none');
