#!/usr/bin/env node
// Turns a profile into the Firefox Profiler's processed format with the
// profiler's own code, as profiler.firefox.com does when it opens a file,
// and writes it as JSON: the processed profiles the tests compare with
// what stackcollapse-firefox reads from the raw Gecko profile.
//
// The code is the bundle of the npm package @firefox-devtools/profiler-cli
// 0.10.0 (tests/firefox-process.sh fetches it), which has no command to
// write a processed profile: the bundle is loaded as a module with its
// final "run main()" statement replaced by an export of its loader,
// unserializeProfileOfArbitraryFormat (minified "Dp" in 0.10.0; the
// names are checked), and typed arrays are written as plain arrays.
//
// usage: node firefox_process.js BUNDLE INPUT OUTPUT
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');

const [bundle, input, output] = process.argv.slice(2);
if (!output) {
	console.error('usage: node firefox_process.js BUNDLE INPUT OUTPUT');
	process.exit(2);
}
let code = fs.readFileSync(bundle, 'utf8').replace(/^#!.*\n/, '');
const mainCall =
    'Gle().catch(e=>{console.error(`Fatal error: ${e}`),process.exit(1)});';
if (!code.includes(mainCall) || !code.includes('async function Dp(e,t,n={})')) {
	console.error('firefox_process.js: not the profiler-cli 0.10.0 bundle');
	process.exit(2);
}
code = code.replace(mainCall,
    'module.exports={unserializeProfileOfArbitraryFormat:Dp};');
const m = new Module(bundle, null);
m.filename = bundle;
m.paths = Module._nodeModulePaths(path.dirname(bundle));
m._compile(code, bundle);

m.exports.unserializeProfileOfArbitraryFormat(
    new Uint8Array(fs.readFileSync(input))).then((profile) => {
	fs.writeFileSync(output, JSON.stringify(profile, (k, v) =>
	    ArrayBuffer.isView(v) ? Array.from(v) : v));
}, (e) => {
	console.error(`firefox_process.js: ${input}: ${e}`);
	process.exit(1);
});
