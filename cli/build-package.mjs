// Builds the CLI as a package of its own, the one the registry serves at
// /cli/skillyard-<version>.tgz and that an operator can publish to npm as it is:
// cli/main.ts and everything it imports (our code and npm packages alike) bundled by
// esbuild into dist/main.js, so that it needs no install step, no Next.js, no Prisma and
// no compiler, on Node 20 and later. Only isolated-vm and esbuild stay outside (native
// binaries): the commands that run tools here load them when present and say what to
// do when not. Then `npm pack` makes the tarball, and latest.json records its
// version, file name and integrity for app/cli/[file]/route.ts.
//
// Plain JavaScript, so `npm start` can run it without a TypeScript runtime.
//   node cli/build-package.mjs          -> dist/cli-package/skillyard-<v>.tgz, latest.json
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// lib/skills/ts-literal.ts loads the TypeScript parser with createRequire (on the first JS/TS
// skill, so that the app need not bundle it); here it becomes a require() esbuild bundles,
// still evaluated only on first use.
const bundleTypescript = {
  name: 'bundle-typescript',
  setup(b) {
    b.onLoad({ filter: /lib[\\/]skills[\\/]ts-literal\.ts$/ }, (args) => {
      const src = fs.readFileSync(args.path, 'utf8');
      const out = src.replace("createRequire(import.meta.url)('typescript')", "require('typescript')");
      if (out === src) throw new Error('lib/skills/ts-literal.ts no longer loads typescript with createRequire: update cli/build-package.mjs');
      return { contents: out, loader: 'ts' };
    });
  },
};

export const CLI_PACKAGE_OUT = path.join('dist', 'cli-package');

/** The version the CLI reports (cli/version.ts), read without a TypeScript runtime. */
export function cliVersion(root) {
  const src = fs.readFileSync(path.join(root, 'cli', 'version.ts'), 'utf8');
  const m = /CLI_VERSION = '([^']+)'/.exec(src);
  if (!m) throw new Error('cli/version.ts holds no CLI_VERSION');
  return m[1];
}

export async function buildCliPackage(root, log = () => {}) {
  const version = cliVersion(root);
  const out = path.join(root, CLI_PACKAGE_OUT);
  const stage = path.join(out, `stage.${process.pid}`);
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(path.join(stage, 'bin'), { recursive: true });
  try {
    const result = await build({
      metafile: true,
      absWorkingDir: root,
      entryPoints: { main: 'cli/main.ts' },
      outdir: path.join(stage, 'dist'),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // native binaries: loaded only by run/agent/mcp (local), which check for them first
      external: ['isolated-vm', 'esbuild'],
      alias: { 'server-only': './node_modules/server-only/empty.js' },
      // CommonJS dependencies bundled into ES modules still call require() for Node's own modules
      banner: {
        js: [
          "import { createRequire as __syRequire } from 'node:module';",
          "import { fileURLToPath as __syPath } from 'node:url';",
          'const require = __syRequire(import.meta.url);',
          'const __filename = __syPath(import.meta.url);',
          "const __dirname = __filename.replace(/[\\\\/][^\\\\/]*$/, '');",
        ].join(' '),
      },
      chunkNames: 'chunks/[name]-[hash]',
      minifySyntax: true,
      minifyWhitespace: true,
      plugins: [bundleTypescript],
      legalComments: 'none',
      logLevel: 'warning',
    });
    const template = JSON.parse(fs.readFileSync(path.join(root, 'cli', 'package', 'package.json'), 'utf8'));
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ ...template, version }, null, 2) + '\n');
    for (const f of ['README.md', 'LICENSE']) fs.copyFileSync(path.join(root, 'cli', 'package', f), path.join(stage, f));
    fs.copyFileSync(path.join(root, 'cli', 'package', 'bin', 'skillyard.mjs'), path.join(stage, 'bin', 'skillyard.mjs'));
    fs.chmodSync(path.join(stage, 'bin', 'skillyard.mjs'), 0o755);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(
      execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
        cwd: stage,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        shell: process.platform === 'win32',
      }),
    )[0];
    const file = `skillyard-${version}.tgz`;
    if (packed.filename !== file) fs.renameSync(path.join(out, packed.filename), path.join(out, file));
    const bytes = fs.readFileSync(path.join(out, file));
    const integrity = `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;
    const latest = { name: template.name, version, file, integrity, size: bytes.byteLength };
    fs.writeFileSync(path.join(out, 'latest.json'), JSON.stringify(latest, null, 1) + '\n');
    const inputs = [
      ...Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules')),
      'cli/build-package.mjs',
      'cli/package/package.json',
      'cli/package/README.md',
      'cli/package/bin/skillyard.mjs',
    ];
    fs.writeFileSync(path.join(out, 'inputs.json'), JSON.stringify(inputs));
    log(`[skillyard] CLI package built: ${path.join(CLI_PACKAGE_OUT, file)} (${(bytes.byteLength / 1024).toFixed(0)} kB, ${integrity.slice(0, 20)}…)`);
    return latest;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** Whether dist/cli-package is missing or older than a source it was built from (`npm start` rebuilds it then). */
export function cliPackageIsStale(root) {
  const out = path.join(root, CLI_PACKAGE_OUT);
  try {
    const latest = JSON.parse(fs.readFileSync(path.join(out, 'latest.json'), 'utf8'));
    const builtMs = fs.statSync(path.join(out, latest.file)).mtimeMs;
    if (latest.version !== cliVersion(root)) return true;
    const inputs = JSON.parse(fs.readFileSync(path.join(out, 'inputs.json'), 'utf8'));
    return inputs.some((p) => (fs.statSync(path.join(root, p), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > builtMs);
  } catch {
    return true;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  await buildCliPackage(root, console.log);
}
