// Traces a page in headless Chromium over the DevTools protocol
// (--remote-debugging-pipe) as the Performance panel does: Tracing.start on
// the page's session with transferMode ReportEvents, Page.navigate, wait,
// Tracing.end; the events of every Tracing.dataCollected, in the order
// they came, make the trace.
//   default   {"traceEvents":[...],\n"metadata":{...}}, each event parsed
//             and written again by JSON.stringify, one a line, as DevTools
//             saves them (numbers past 2^53 lose their last digits, as
//             there);
//   --array   a bare JSON array of the events, each event's text exactly
//             as Chromium sent it, one a line.
// usage: node trace.js [--array] CHROMIUM PAGE.html CATEGORIES > trace.json
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
let args = process.argv.slice(2);
const array = args[0] === '--array';
if (array) args = args.slice(1);
const [chromium, page, categories] = args;
const profileDir = fs.mkdtempSync(os.tmpdir() + '/chr-');
const child = spawn(chromium, ['--headless=new', '--no-sandbox',
	'--disable-gpu', '--remote-debugging-pipe', '--user-data-dir=' +
	profileDir, 'about:blank'],
	{ stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const out = child.stdio[3], inp = child.stdio[4];
let next = 1, buf = '';
const waiting = new Map();
const events = [];	// parsed
const texts = [];	// as sent
let complete = null;

// The text of each element of the array that starts at raw[i] ('['),
// cut at its top-level commas.
function elements(raw, i) {
	const res = [];
	let depth = 0, start = i + 1, str = false;
	for (; i < raw.length; i++) {
		const c = raw[i];
		if (str) {
			if (c === '\\') i++;
			else if (c === '"') str = false;
		} else if (c === '"') {
			str = true;
		} else if (c === '[' || c === '{') {
			depth++;
		} else if (c === ']' || c === '}') {
			if (--depth === 0) {
				if (raw.slice(start, i).trim()) res.push(raw.slice(start, i).trim());
				return res;
			}
		} else if (c === ',' && depth === 1) {
			res.push(raw.slice(start, i).trim());
			start = i + 1;
		}
	}
	throw new Error('unterminated array');
}

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
			waiting.get(msg.id)(msg);
			waiting.delete(msg.id);
		} else if (msg.method === 'Tracing.dataCollected') {
			for (const e of msg.params.value) events.push(e);
			const at = raw.indexOf('"value":[');
			const t = elements(raw, at + 8);
			if (t.length !== msg.params.value.length)
				throw new Error('events cut wrong');
			for (const e of t) texts.push(e);
		} else if (msg.method === 'Tracing.tracingComplete' && complete) {
			complete();
		}
	}
});
(async () => {
	const t = await send('Target.createTarget', { url: 'about:blank' });
	const a = await send('Target.attachToTarget',
		{ targetId: t.result.targetId, flatten: true });
	const s = a.result.sessionId;
	await send('Page.enable', {}, s);
	// let the browser settle (headless loads a WebUI of its own at start)
	await new Promise((r) => setTimeout(r, 1000));
	const started = new Date().toISOString();
	// on the page's session, as DevTools does: the trace then covers the
	// browser, the GPU process and the page's renderer, not every process
	const r = await send('Tracing.start', { categories,
		transferMode: 'ReportEvents' }, s);
	if (r.error) throw new Error(JSON.stringify(r.error));
	await send('Page.navigate', { url: page }, s);
	await send('Runtime.evaluate', { expression:
		'new Promise((r) => setTimeout(r, 1200))', awaitPromise: true }, s);
	const h = await send('Runtime.evaluate',
		{ expression: 'navigator.hardwareConcurrency' }, s);
	const done = new Promise((resolve) => { complete = resolve; });
	await send('Tracing.end', {}, s);
	await done;
	if (array) {
		process.stdout.write('[' + texts.join(',\n') + ']\n');
	} else {
		// the order of the brief; DevTools' SaveFileFormatter writes the
		// same lines but, since 2024, "metadata" before "traceEvents"
		process.stdout.write('{"traceEvents": [\n' + events.map((e) =>
			'  ' + JSON.stringify(e)).join(',\n') + '\n],\n"metadata": ' +
			JSON.stringify({ source: 'DevTools', startTime: started,
				dataOrigin: 'TraceEvents', cpuThrottling: 1,
				hardwareConcurrency: h.result.result.value },
			null, 2) + '}\n');
	}
	child.kill();
	child.on('exit', () => fs.rmSync(profileDir, { recursive: true,
		force: true }));
})().catch((e) => { console.error(e); child.kill(); process.exit(1); });
