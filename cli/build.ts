// The CLI ships as JavaScript: cli/main.ts and everything it imports from this
// repository are bundled by esbuild into dist/cli/ (one chunk per command, loaded on
// demand; npm packages stay external). `npm run build:cli` (part of `npm run build` and
// of `postinstall`) makes it; bin/skillyard.mjs also makes it on first use and again
// when a source listed in dist/cli/inputs.json is newer than the build.
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const CLI_OUT = path.join('dist', 'cli');

export function buildCli(root: string): { outdir: string; inputs: number } {
  const outdir = path.join(root, CLI_OUT);
  const tmp = `${outdir}.${process.pid}.${Date.now()}.tmp`;
  mkdirSync(tmp, { recursive: true });
  let inputs: string[];
  try {
    const res = buildSync({
      absWorkingDir: root,
      entryPoints: { main: 'cli/main.ts' },
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      packages: 'external',
      // lib/ modules the CLI reaches (lib/mcp's index) mark themselves server-only for Next.js;
      // outside React Server Components that marker throws, so it becomes an empty module here
      alias: { 'server-only': './node_modules/server-only/empty.js' },
      metafile: true,
      sourcemap: 'linked',
      logLevel: 'silent',
      chunkNames: 'chunks/[name]-[hash]',
      banner: { js: '// Built from cli/ by cli/build.ts (npm run build:cli): do not edit.' },
    });
    inputs = Object.keys(res.metafile!.inputs).filter((p) => !p.includes('node_modules'));
    writeFileSync(path.join(tmp, 'inputs.json'), JSON.stringify({ builtAt: Date.now(), inputs }, null, 1));
    // Swap in the new build whole, so a concurrent first use never sees half of one.
    const old = `${tmp}.old`;
    try {
      renameSync(outdir, old);
    } catch {
      /* no previous build */
    }
    try {
      renameSync(tmp, outdir);
    } catch (error) {
      // another builder put its build there between the two renames: as fresh as ours
      if (!existsSync(path.join(outdir, 'inputs.json'))) throw error;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    // a failed or lost build leaves nothing behind
    rmSync(tmp, { recursive: true, force: true });
  }
  return { outdir, inputs: inputs.length };
}

if (process.argv[1] && /cli[\\/]build\.(ts|mjs|js)$/.test(process.argv[1])) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const out = buildCli(root);
  console.log(`[skillyard] CLI built: ${path.relative(root, out.outdir)} (${out.inputs} sources)`);
}
