// `npm start` / `npm run dev` without tsx: runs dist/start.mjs, the esbuild bundle of
// scripts/start.ts (and the lib/ code it uses), building it first when it is missing or
// older than any of its inputs. `node scripts/start.mjs --build-only` (part of
// `npm run build`) only builds it. Plain JavaScript, so nothing here needs a TypeScript runtime.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.env.SKILLYARD_ROOT ?? process.cwd();
const out = path.join(root, 'dist', 'start.mjs');
const meta = path.join(root, 'dist', 'start.meta.json');

function isCurrent() {
  try {
    const builtMs = fs.statSync(out).mtimeMs;
    const inputs = Object.keys(JSON.parse(fs.readFileSync(meta, 'utf8')).inputs);
    return inputs.every((file) => {
      try {
        return fs.statSync(path.join(root, file)).mtimeMs <= builtMs;
      } catch {
        return false; // an input is gone: rebuild
      }
    });
  } catch {
    return false;
  }
}

async function buildStart() {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['scripts/start.ts'],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // npm packages stay packages (native ones among them); only our own code is bundled
    packages: 'external',
    alias: { 'server-only': './node_modules/server-only/empty.js' },
    metafile: true,
    logLevel: 'warning',
    banner: { js: '// Built from scripts/start.ts by scripts/start.mjs: do not edit.' },
  });
  fs.renameSync(tmp, out);
  fs.writeFileSync(meta, JSON.stringify({ inputs: result.metafile.inputs }));
}

const buildOnly = process.argv.includes('--build-only');
// a deployment that ships only dist/ (no scripts/start.ts) runs what it has
if (buildOnly || (fs.existsSync(path.join(root, 'scripts', 'start.ts')) && !isCurrent())) await buildStart();
if (buildOnly) console.log(`[skillyard] server start script built: ${path.relative(root, out)}`);
else {
  // the CLI package the registry serves at /cli/skillyard.tgz (cli/build-package.mjs),
  // rebuilt when a source changed; a failure only leaves that route answering 404
  if (fs.existsSync(path.join(root, 'cli', 'build-package.mjs'))) {
    try {
      const { buildCliPackage, cliPackageIsStale } = await import('../cli/build-package.mjs');
      if (cliPackageIsStale(root)) await buildCliPackage(root, console.log);
    } catch (error) {
      console.log(`[skillyard] CLI package not built (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  await import(pathToFileURL(out).href);
}
