// README.md and docs/*.md link only to files of this repository: every relative link (inline, image,
// reference definition, HTML href/src) must name a file or folder inside the repository that git tracks or
// would track (not one that is ignored, like out/, and not one beside the checkout), and an #anchor into a
// Markdown file must name one of its headings (GitHub's ids).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

export interface Link {
  target: string;
  line: number;
}

/** The text with fenced code blocks blanked, and inline code spans too unless `keepSpans` (line numbers kept). */
export function withoutCode(markdown: string, keepSpans = false): string {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  return lines
    .map((line) => {
      const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence !== null) {
        if (opener && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = null;
        return '';
      }
      if (opener) {
        fence = opener[1]!;
        return '';
      }
      return keepSpans ? line : line.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
}

/** Every link target of a Markdown text, with its line. */
export function markdownLinks(markdown: string): Link[] {
  const links: Link[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1;
      // [text](target "title") and ![alt](target); the target may be in <…>.
      for (const m of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
        links.push({ target: m[1]!.replace(/^<|>$/g, ''), line });
      }
      // [id]: target
      const definition = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
      if (definition) links.push({ target: definition[1]!.replace(/^<|>$/g, ''), line });
      // <a href="…">, <img src="…">
      for (const m of text.matchAll(/\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) links.push({ target: (m[1] ?? m[2])!, line });
    });
  return links;
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(markdown, true).split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Files git tracks or would track (untracked but not ignored), relative to the root; null without git. */
function repositoryFiles(): Set<string> | null {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    return new Set(out.toString('utf8').split('\0').filter(Boolean));
  } catch {
    return null;
  }
}

/** What is wrong with one link of `file` (a path relative to the root), or null when it is fine. */
function problem(file: string, target: string, files: Set<string> | null): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null; // https:, mailto: … not ours to check
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent((hash >= 0 ? target.slice(0, hash) : target).split('?')[0]!);
  const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : null;
  const absolute = pathPart === '' ? join(ROOT, file) : isAbsolute(pathPart) ? join(ROOT, pathPart) : resolve(ROOT, dirname(file), pathPart);
  const inRepo = relative(ROOT, absolute).split('\\').join('/');
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return 'points outside the repository';
  if (!existsSync(absolute)) return 'no such file';
  const isDir = statSync(absolute).isDirectory();
  if (files !== null && inRepo !== '') {
    const known = isDir ? [...files].some((f) => f.startsWith(`${inRepo}/`)) : files.has(inRepo);
    if (!known) return 'not a file of the repository (ignored or outside git)';
  }
  if (anchor !== null && anchor !== '' && !isDir && absolute.endsWith('.md')) {
    if (!headingIds(readFileSync(absolute, 'utf8')).has(anchor.toLowerCase())) return `no heading #${anchor}`;
  }
  return null;
}

function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

describe('links in README.md and docs/*.md', () => {
  const files = repositoryFiles();

  for (const file of documents()) {
    it(`${file} links only to files of the repository`, () => {
      const broken = markdownLinks(readFileSync(join(ROOT, file), 'utf8'))
        .map((link) => ({ ...link, problem: problem(file, link.target, files) }))
        .filter((link) => link.problem !== null)
        .map((link) => `${file}:${link.line} ${link.target}: ${link.problem}`);
      expect(broken).toEqual([]);
    });
  }

  it('README.md links to the docs it names (the check has something to check)', () => {
    const targets = markdownLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target);
    expect(targets).toEqual(expect.arrayContaining(['docs/local-service.md', 'docs/openapi.yaml']));
  });

  it('finds every kind of link, skips code, and tells a broken one from a good one', () => {
    const sample = [
      '# Set up and run',
      'See [the service](docs/local-service.md), ![logo](<resources/icon.png> "Logo") and [spec](../shared/seed/spec.md).',
      '[design]: DESIGN.md',
      '<a href="docs/openapi.yaml">api</a> and [web](https://example.com) and [top](#set-up-and-run)',
      '```sh',
      'cat [not a link](nowhere.md)',
      '```',
      'Inline `[nor this](nowhere.md)` either; [gone](#no-such-heading), [dir](docs/), [built](out/renderer/index.html)',
    ].join('\n');
    const links = markdownLinks(sample);
    expect(links.map((l) => `${l.line} ${l.target}`)).toEqual([
      '2 docs/local-service.md',
      '2 resources/icon.png',
      '2 ../shared/seed/spec.md',
      '3 DESIGN.md',
      '4 https://example.com',
      '4 #set-up-and-run',
      '4 docs/openapi.yaml',
      '8 #no-such-heading',
      '8 docs/',
      '8 out/renderer/index.html',
    ]);
    const verdicts = Object.fromEntries(links.map((l) => [l.target, problem('README.md', l.target, files)]));
    expect(verdicts['docs/local-service.md']).toBeNull();
    expect(verdicts['docs/openapi.yaml']).toBeNull();
    expect(verdicts['https://example.com']).toBeNull();
    expect(verdicts['#set-up-and-run']).toBeNull();
    expect(verdicts['docs/']).toBeNull();
    expect(verdicts['../shared/seed/spec.md']).toBe('points outside the repository');
    expect(verdicts['DESIGN.md']).toBe('no such file');
    expect(verdicts['#no-such-heading']).toBe('no heading #no-such-heading');
    if (files !== null && existsSync(join(ROOT, 'out/renderer/index.html'))) {
      expect(verdicts['out/renderer/index.html']).toBe('not a file of the repository (ignored or outside git)');
    }
    expect(problem('docs/decisions.md', 'local-service.md#the-data-folder-lock', files)).toBeNull();
    expect(problem('docs/decisions.md', '../README.md#project-layout', files)).toBeNull();
  });

  it('makes heading ids the way GitHub does', () => {
    expect([...headingIds('# Set up and run\n## The local service, headless\n## Routes (DESIGN.md §4)\n# Set up and run\n### `npm start`')]).toEqual([
      'set-up-and-run',
      'the-local-service-headless',
      'routes-designmd-4',
      'set-up-and-run-1',
      'npm-start',
    ]);
  });
});
