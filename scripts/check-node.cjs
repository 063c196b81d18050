// Run first by every npm script (package.json): on a Node the project cannot run on, stop at once with one
// line instead of the stack trace the first .ts script would throw. Written for any Node (CommonJS, ES5, no
// optional chaining), since its whole job is to run where the rest cannot. The range is package.json's
// engines.node, the same range npm install enforces through .npmrc's engine-strict. It understands clauses
// joined by `||`, each `^M.m.p` (that major, from M.m.p) or `>=M.m` (anything from there on).
'use strict';

function parseVersion(text) {
  var parts = String(text).replace(/^v/, '').split('.');
  return [Number(parts[0]) || 0, Number(parts[1]) || 0, Number(parts[2]) || 0];
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The clauses of the range, or null when it has a form this guard does not read. */
function parseRange(range) {
  var clauses = String(range || '').split('||');
  var out = [];
  for (var i = 0; i < clauses.length; i++) {
    var m = /^\s*(\^|>=)\s*(\d+(?:\.\d+){0,2})\s*$/.exec(clauses[i]);
    if (!m) return null;
    out.push({ caret: m[1] === '^', from: parseVersion(m[2]) });
  }
  return out;
}

/** null when `version` may run the project, else the one line to print. */
function problem(version, range) {
  var clauses = parseRange(range);
  if (!clauses) return 'Image Studio: package.json engines.node must read like "^22.18.0 || >=24" (found "' + range + '")';
  var v = parseVersion(version);
  var lowest = null;
  for (var i = 0; i < clauses.length; i++) {
    var c = clauses[i];
    var inMajor = !c.caret || v[0] === c.from[0];
    if (inMajor && compare(v, c.from) >= 0) return null;
    if (!lowest || compare(c.from, lowest) < 0) lowest = c.from;
  }
  var minimum = lowest[0] + '.' + lowest[1];
  if (compare(v, lowest) >= 0) {
    // Newer than the minimum but in a gap of the range (e.g. Node 23 between ^22.18 and >=24).
    return 'Image Studio needs Node ' + minimum + ' or newer (Node ' + v[0] + ' cannot run it; use ' + String(range).replace(/\s+/g, ' ').trim() + '); this is Node ' + version;
  }
  return 'Image Studio needs Node ' + minimum + ' or newer; this is Node ' + version;
}

module.exports = { problem: problem };

if (require.main === module) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS on purpose (see above)
  var engines = require('../package.json').engines || {};
  var line = problem(process.versions.node, engines.node);
  if (line) {
    process.stderr.write(line + '\n');
    process.exit(1);
  }
}
