// Profiles a page in headless Chromium over the DevTools protocol
// (--remote-debugging-pipe) and prints the Profiler.stop reply as it came.
// usage: node devtools.js CHROMIUM PAGE.html > devtools.json
'use strict';
const { spawn } = require('child_process');
const [chromium, page] = process.argv.slice(2);
const child = spawn(chromium, ['--headless=new', '--no-sandbox',
	'--disable-gpu', '--remote-debugging-pipe', '--user-data-dir=' +
	require('fs').mkdtempSync(require('os').tmpdir() + '/chr-'),
	'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const out = child.stdio[3], inp = child.stdio[4];
let next = 1, buf = '';
const waiting = new Map();
function send(method, params, sessionId) {
	const id = next++;
	out.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
	return new Promise((resolve) => waiting.set(id, resolve));
}
inp.on('data', (d) => {
	buf += d.toString();
	let z;
	while ((z = buf.indexOf('\0')) >= 0) {
		const raw = buf.slice(0, z);
		buf = buf.slice(z + 1);
		const msg = JSON.parse(raw);
		if (msg.id && waiting.has(msg.id)) {
			waiting.get(msg.id)({ msg, raw });
			waiting.delete(msg.id);
		}
	}
});
(async () => {
	const { msg: t } = await send('Target.createTarget', { url: 'about:blank' });
	const { msg: a } = await send('Target.attachToTarget',
		{ targetId: t.result.targetId, flatten: true });
	const s = a.result.sessionId;
	await send('Profiler.enable', {}, s);
	await send('Profiler.setSamplingInterval', { interval: 200 }, s);
	await send('Profiler.start', {}, s);
	await send('Page.navigate', { url: page }, s);
	await send('Runtime.evaluate', { expression:
		'new Promise((r) => setTimeout(r, 1500))', awaitPromise: true }, s);
	const { raw } = await send('Profiler.stop', {}, s);
	process.stdout.write(raw + '\n');
	child.kill();
})();
