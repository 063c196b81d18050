// Run first by every npm script (package.json): on a Node older than the project needs, stop at once with one
// line instead of the stack trace the first .ts script would throw. Written for any Node (CommonJS, ES5, no
// optional chaining), since its whole job is to run where the rest cannot. The minimum is package.json's
// engines.node (">=MAJOR.MINOR"), the same range npm install enforces through .npmrc's engine-strict.
'use strict';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS on purpose (see above)
var engines = require('../package.json').engines || {};
var wanted = /^>=\s*(\d+)\.(\d+)(?:\.\d+)?$/.exec(String(engines.node || '').trim());
if (!wanted) {
  process.stderr.write('Image Studio: package.json engines.node must read ">=MAJOR.MINOR" (found "' + engines.node + '")\n');
  process.exit(1);
}
var minMajor = Number(wanted[1]);
var minMinor = Number(wanted[2]);
var current = process.versions.node;
var parts = current.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
if (major < minMajor || (major === minMajor && minor < minMinor)) {
  process.stderr.write('Image Studio needs Node ' + minMajor + '.' + minMinor + ' or newer; this is Node ' + current + '\n');
  process.exit(1);
}
