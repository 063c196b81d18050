// `npm test`: every suite (vitest for unit and integration, Playwright for e2e), then one closing line
// `N passed, N failed` summed over all suites, which CI reads.
// On Linux without a Secret Service it re-runs itself under dbus-run-session with a fresh, unlocked
// gnome-keyring in a temp folder, so the keychain tests talk to a real keychain and never to the user's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const { values } = parseArgs({ options: { only: { type: 'string' } }, allowPositionals: true });
const only = values.only as 'unit' | 'e2e' | undefined;
const root = process.cwd();

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

if (process.platform === 'linux' && process.env.STUDIO_TEST_KEYRING !== 'ready' && has('dbus-run-session') && has('gnome-keyring-daemon')) {
  const keyringHome = mkdtempSync(join(tmpdir(), 'studio-keyring-'));
  const inner = `echo -n studio-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "${process.execPath}" scripts/test-all.ts ${process.argv.slice(2).join(' ')}`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', inner], {
    stdio: 'inherit',
    env: { ...process.env, STUDIO_TEST_KEYRING: 'ready', XDG_DATA_HOME: keyringHome, XDG_CONFIG_HOME: keyringHome },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

interface Tally {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
  /** One line per failed test (file, title, the first line of its error), printed just above the totals, so the tail of a CI log names them. */
  failures: string[];
}

/** The first line of an error message, without terminal colours. */
function firstLine(text: unknown): string {
  return stripVTControlCharacters(String(text ?? '')).trim().split('\n')[0]?.slice(0, 300) ?? '';
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function vitestSuite(): Promise<Tally> {
  // The slow files (src-service/copy-as-code.slow.test.ts waits 305 s for an answer) run in a vitest of their own, started at the
  // same time, so their minutes overlap the main run instead of following it.
  const [main, slow] = await Promise.all([vitestRun('vitest', [], { STUDIO_SLOW_TESTS_APART: '1' }), vitestRun('vitest-slow', ['.slow.test.ts'])]);
  return {
    suite: 'vitest',
    passed: main.passed + slow.passed,
    failed: main.failed + slow.failed,
    skipped: main.skipped + slow.skipped,
    failures: [...main.failures, ...slow.failures],
  };
}

async function vitestRun(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Tally> {
  const out = join(root, '.tmp', `${name}-report.json`);
  rmSync(out, { force: true });
  const code = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args], env);
  if (!existsSync(out)) return { suite: name, passed: 0, failed: Math.max(1, code), skipped: 0, failures: [`${name}: wrote no report (exit ${code})`] };
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    success: boolean;
    testResults: { name: string; status: string; message?: string; assertionResults: { status: string; fullName: string; failureMessages: string[] }[] }[];
  };
  const failures: string[] = [];
  // A file that failed with no failed test (it did not load, a hook failed, its worker died) is a failure all the same.
  let outsideTests = 0;
  for (const file of report.testResults) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
    if (file.status === 'failed' && failed.length === 0) {
      outsideTests++;
      failures.push(`${where}: ${firstLine(file.message) || 'failed outside its tests (a hook, its worker or its loading; see the log above)'}`);
    }
  }
  // An error outside every file (an unhandled rejection) fails the run without a failed file.
  if (code !== 0 && report.numFailedTests + outsideTests === 0) {
    outsideTests = 1;
    failures.push(`${name}: exit ${code} with no failed test or file (an unhandled error? see the log above)`);
  }
  return { suite: name, passed: report.numPassedTests, failed: report.numFailedTests + outsideTests, skipped: report.numPendingTests + report.numTodoTests, failures };
}

async function playwrightSuite(): Promise<Tally> {
  const hasSpecs = existsSync(join(root, 'e2e')) && readdirSync(join(root, 'e2e')).some((f) => f.endsWith('.spec.ts'));
  if (!hasSpecs) return { suite: 'playwright', passed: 0, failed: 0, skipped: 0, failures: [] };
  const out = join(root, '.tmp', 'playwright-report.json');
  rmSync(out, { force: true });
  const code = await run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  if (!existsSync(out)) return { suite: 'playwright', passed: 0, failed: Math.max(1, code), skipped: 0, failures: [`playwright: wrote no report (exit ${code})`] };
  const report = JSON.parse(readFileSync(out, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; errors?: { message?: string }[]; suites?: PwSuite[] };
  const failures: string[] = (report.errors ?? []).map((e) => `playwright: ${firstLine(e.message)}`);
  const walk = (suite: PwSuite): void => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status !== 'unexpected') continue;
        const last = t.results.at(-1);
        failures.push(`e2e/${spec.file}:${spec.line} › ${spec.title}: ${firstLine(last?.error?.message) || `${last?.status ?? 'no result'}, not as expected`}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  const loadFailures = code !== 0 && report.stats.unexpected === 0 ? 1 : 0;
  if (loadFailures > 0 && failures.length === 0) failures.push(`playwright: exit ${code} with no failed test (see the log above)`);
  return {
    suite: 'playwright',
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected + loadFailures,
    skipped: report.stats.skipped,
    failures,
  };
}

interface PwSuite {
  specs?: { title: string; file: string; line: number; tests: { status: string; results: { status?: string; error?: { message?: string } }[] }[] }[];
  suites?: PwSuite[];
}

async function main(): Promise<void> {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const tallies: Tally[] = [];
  if (only !== 'e2e') tallies.push(await vitestSuite());
  if (only !== 'unit') tallies.push(await playwrightSuite());
  const failures = tallies.flatMap((t) => t.failures);
  if (failures.length > 0) console.log(`Failed:\n${failures.map((f) => `  ✘ ${f}`).join('\n')}`);
  for (const t of tallies) console.log(`${t.suite}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  const passed = tallies.reduce((s, t) => s + t.passed, 0);
  const failed = tallies.reduce((s, t) => s + t.failed, 0);
  const skipped = tallies.reduce((s, t) => s + t.skipped, 0);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed > 0 ? 1 : 0);
}
