// The house's measures, computed from the code: import cycles between the rooms of main (its top folders) and
// between the renderer's features, and production functions longer than the house allows.
// `node scripts/architecture.ts` prints them; scripts/architecture.test.ts fails on any.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 150;

const root = resolve(import.meta.dirname, '..');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Production files: no tests, test supports or fixtures. */
export function productionFiles(top: string): string[] {
  return walk(join(root, top))
    .filter((f) => !/\.test\.tsx?$|\.test-support\.ts$|test-support\.ts$|test-context\.ts$/.test(f))
    .map((f) => relative(root, f).split(sep).join('/'));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(root, resolve(root, dirname(file), s)).split(sep).join('/'));
}

/** The room a file lives in, or null when the file is not in one of the rooms being measured. */
type RoomOf = (file: string) => string | null;

export const mainRoom: RoomOf = (file) => {
  const m = /^src-main\/([^/]+)\//.exec(file);
  return m ? m[1]! : file.startsWith('src-main/') ? 'src-main' : null;
};

export const rendererRoom: RoomOf = (file) => {
  const m = /^src-renderer\/features\/([^/]+)\//.exec(file);
  return m ? m[1]! : null;
};

/** Edges between rooms (a → b when a file of a imports a file of b), with one file pair as the witness. */
export function roomEdges(top: string, roomOf: RoomOf): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of productionFiles(top)) {
    const from = roomOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = roomOf(target);
      if (!to || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} -> ${target}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** Every cycle's rooms, as strongly connected components of more than one room (Tarjan). */
export function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) connect(n);
  return found;
}

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** Production functions (declarations, methods, arrows, function expressions) longer than MAX_FUNCTION_LINES. */
export function longFunctions(tops: string[], max = MAX_FUNCTION_LINES): LongFunction[] {
  const out: LongFunction[] = [];
  for (const top of tops) {
    for (const file of productionFiles(top)) {
      const text = readFileSync(join(root, file), 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          const lines = end - start + 1;
          if (lines > max) {
            const named = (node as ts.FunctionLikeDeclaration).name;
            let name = named ? named.getText(source) : '';
            if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(source);
            if (!name && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText(source);
            if (!name && ts.isCallExpression(node.parent)) name = `${node.parent.expression.getText(source).slice(0, 40)}(…)`;
            out.push({ file, name: name || '(anonymous)', line: start + 1, lines });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return out.sort((a, b) => b.lines - a.lines);
}

export const PRODUCTION_TOPS = ['src-main', 'src-renderer', 'src-service', 'src-shared', 'src-preload'];

if (import.meta.main) {
  for (const [label, top, roomOf] of [
    ['main', 'src-main', mainRoom],
    ['renderer features', 'src-renderer', rendererRoom],
  ] as const) {
    const edges = roomEdges(top, roomOf);
    const found = cycles(edges);
    console.log(`${label}: ${found.length} folder cycle(s)`);
    for (const c of found) {
      console.log(`  ${c.join(' <-> ')}`);
      for (const a of c) for (const [b, witness] of edges.get(a) ?? []) if (c.includes(b)) console.log(`    ${a} -> ${b}: ${witness}`);
    }
  }
  const long = longFunctions(PRODUCTION_TOPS);
  console.log(`functions over ${MAX_FUNCTION_LINES} lines: ${long.length}`);
  for (const f of long) console.log(`  ${f.lines} ${f.file}:${f.line} ${f.name}`);
}
