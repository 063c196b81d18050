// `node scripts/service-bundle.ts [--out dist/studio-service.mjs]`: the local service as one ES module file that plain
// Node 22.18+ runs without this repository (docs/local-service.md "Without the desktop app"). Everything is bundled
// in (hono, zod, pino, ipaddr.js, the service and its shared code) except sharp, whose native binary has to be
// installed beside the file (`npm install sharp@<the version in package.json>`), and Node's own modules
// (node:sqlite included). The same command line as `npm run service -- …`: ready line first on stdout, every flag.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';

/** Packages that stay outside the file: native code that a bundler cannot carry. */
export const SERVICE_BUNDLE_EXTERNAL = ['sharp'] as const;

export async function bundleService(outFile: string): Promise<string> {
  const out = resolve(outFile);
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve('.'),
    build: {
      ssr: resolve('src-service/cli.ts'),
      outDir: dirname(out),
      emptyOutDir: false,
      minify: false,
      sourcemap: false,
      target: 'node22',
      rolldownOptions: {
        external: [...SERVICE_BUNDLE_EXTERNAL],
        output: { format: 'es', entryFileNames: out.slice(dirname(out).length + 1), codeSplitting: false },
      },
    },
    // Bundle every package (an SSR build leaves them outside by default) but the native ones.
    ssr: { target: 'node', noExternal: true, external: [...SERVICE_BUNDLE_EXTERNAL] },
  });
  return out;
}

/** The version of sharp the bundle was built and tested with, for the install line. */
export function sharpVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return pkg.dependencies.sharp ?? 'latest';
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'dist/studio-service.mjs' } } });
  const file = await bundleService(values.out);
  process.stderr.write(`wrote ${file}\nrun it with Node 22.18+ where sharp@${sharpVersion()} is installed: node ${values.out} --seed --port 0\n`);
}
