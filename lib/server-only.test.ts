// `import 'server-only'` (CONVENTIONS.md, after vercel/ai-chatbot) on every module of the
// server-side libraries, so none can reach a browser bundle: Next fails the build instead.
// The marker throws when loaded outside React Server Components, so a module that plain
// Node also loads (the CLI, scripts, benches run without --conditions=react-server, the
// sandbox worker, Playwright) must go without it: those are listed in ALLOWED with the
// reason, and the import graph is walked to prove that no such entry point, and no
// client component, loads a module that carries the marker.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The server-side libraries: every module in them carries the marker unless ALLOWED. */
const SERVER_LIBS = ['actions', 'api', 'auth', 'authz', 'db', 'limits', 'registry', 'render', 'runs', 'server', 'session', 'teams'];

/** Server-side modules without the marker, each with who loads it outside Next's server. */
const ALLOWED: Record<string, string> = {
  'lib/db/embedded-postgres.ts': 'scripts/e2e-server.ts, scripts/new-migration.ts and benches start Postgres under plain Node (tsx)',
  'lib/db/migrate.ts': 'scripts/migrate.ts (npm run db:migrate) and scripts/new-migration.ts run under plain Node (tsx)',
  'lib/db/scratch-database.ts': 'scripts/e2e-server.ts (Playwright) and the benches make throwaway databases under plain Node',
  'lib/registry/package-tarball.ts': 'the CLI (publish, add) packs and unpacks tarballs: dist/cli runs under plain Node',
  'lib/registry/read-upload.ts': 'the CLI reads the package it publishes with it',
  'lib/registry/package-limit-settings.ts': "read-upload.ts takes the operator's package limits from it (the CLI, the upload worker thread)",
  'lib/registry/path-collisions.ts': 'read-upload.ts checks the paths of a package with it (the CLI, the upload worker thread)',
  'lib/registry/scan-package.ts': 'the CLI scans a package for secrets before it publishes',
  'lib/registry/read-and-scan.ts': 'the upload worker thread (lib/registry/upload-worker.ts, plain Node) reads and scans with it',
  'lib/registry/upload-worker.ts': 'runs as a worker thread under plain Node (dist/registry/upload-worker.mjs)',
  'lib/registry/upload-worker-build.ts': '`npm run build` (lib/registry/build-upload-worker.ts) bundles the upload worker under plain Node',
  'lib/registry/build-upload-worker.ts': 'the `npm run build` step that bundles the upload worker (plain tsx)',
  'lib/render/render-worker.ts': 'runs as a worker thread under plain Node (dist/render/render-worker.mjs)',
  'lib/render/render-worker-build.ts': '`npm run build` (lib/render/build-render-worker.ts) bundles the render worker under plain Node',
  'lib/render/build-render-worker.ts': 'the `npm run build` step that bundles the render worker (plain tsx)',
  'lib/render/markdown-options.ts': "the render worker (plain Node) and the run view's markdown (a client component) take the same options from it",
  'lib/api/content-security-policy.ts': "proxy.ts (Next's proxy, not a Server Components layer) builds the header with it",
};

const MARKER = /^import ['"]server-only['"];?$/m;
const DIRECTIVE = (name: string) => new RegExp(`^\\s*(?:(?://[^\\n]*|/\\*[\\s\\S]*?\\*/)\\s*)*['"]use ${name}['"]`);
const IMPORT = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const rel = (abs: string) => path.relative(ROOT, abs).split(path.sep).join('/');

function listTs(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'generated', 'fixtures'].includes(e.name) && !e.name.startsWith('.')) listTs(p, out);
    } else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null; // a package
  for (const c of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx|mts)$/.test(c) && fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

type ModuleInfo = { deps: string[]; marked: boolean };
const modules = new Map<string, ModuleInfo>();

/** A module's own runtime imports (type-only ones are erased); a 'use server' module is a boundary a client bundle does not cross. */
function moduleInfo(file: string, forClient: boolean): ModuleInfo {
  const key = `${forClient}:${file}`;
  const known = modules.get(key);
  if (known) return known;
  const text = fs.readFileSync(file, 'utf8');
  const deps: string[] = [];
  if (!(forClient && DIRECTIVE('server').test(text))) {
    for (const m of text.matchAll(IMPORT)) {
      if (m[2]) continue;
      const target = resolveImport(file, m[3] ?? m[4]!);
      if (target) deps.push(target);
    }
  }
  const info = { deps, marked: MARKER.test(text) };
  modules.set(key, info);
  return info;
}

/** Every marked module the entries load, each with the chain of imports that reaches it. */
function markedReachedFrom(entries: string[], forClient = false): string[] {
  const parent = new Map<string, string | null>(entries.map((e) => [e, null]));
  const stack = [...entries];
  const found: string[] = [];
  while (stack.length) {
    const f = stack.pop()!;
    const info = moduleInfo(f, forClient);
    if (info.marked) {
      const chain: string[] = [];
      for (let at: string | null = f; at; at = parent.get(at) ?? null) chain.unshift(rel(at));
      found.push(chain.join(' -> '));
    }
    for (const d of info.deps) {
      if (!parent.has(d)) {
        parent.set(d, f);
        stack.push(d);
      }
    }
  }
  return found.sort();
}

/** Entry points Node runs without the react-server condition (so the marker would throw). */
function plainNodeEntries(): string[] {
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const benchFiles = listTs(path.join(ROOT, 'bench'));
  const benchText = benchFiles.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const benches = benchFiles.filter((f) => {
    const name = rel(f);
    const run = Object.values(scripts).find((s) => s.includes(name));
    if (run) return !run.includes('--conditions=react-server');
    return benchText.includes(`'${name}'`); // spawned by another bench (with plain tsx)
  });
  // bundled by scripts/start.mjs with server-only aliased to its empty module
  const skip = new Set(['scripts/start.ts', 'scripts/prepare-database.ts']);
  // scripts that npm runs with the react-server condition (seed, worker, retention...) may load marked modules
  const plainScripts = listTs(path.join(ROOT, 'scripts')).filter((f) => {
    const run = Object.values(scripts).find((s) => s.includes(rel(f)));
    return !run?.includes('--conditions=react-server');
  });
  return [
    ...listTs(path.join(ROOT, 'cli')),
    ...plainScripts,
    ...listTs(path.join(ROOT, 'e2e')),
    ...benches,
    path.join(ROOT, 'lib/sandbox/worker.ts'),
    path.join(ROOT, 'lib/sandbox/build-worker.ts'),
    path.join(ROOT, 'lib/registry/upload-worker.ts'),
    path.join(ROOT, 'lib/registry/build-upload-worker.ts'),
    path.join(ROOT, 'lib/render/render-worker.ts'),
    path.join(ROOT, 'lib/render/build-render-worker.ts'),
    path.join(ROOT, 'playwright.config.ts'),
    path.join(ROOT, 'proxy.ts'),
  ].filter((f) => !/\.test\.ts$/.test(f) && !skip.has(rel(f)));
}

describe("server-only on the server's modules", () => {
  it('every module of the server-side libraries carries the marker, or is ALLOWED with a reason', () => {
    const unmarked = SERVER_LIBS.flatMap((lib) => listTs(path.join(ROOT, 'lib', lib)))
      .filter((f) => !/\.test\.ts$/.test(f) && !f.includes(`${path.sep}testing${path.sep}`))
      .filter((f) => !MARKER.test(fs.readFileSync(f, 'utf8')))
      .map(rel)
      .sort();
    expect(unmarked.filter((f) => !(f in ALLOWED))).toEqual([]);
    // an allowed module that gained the marker (or went away) leaves the list
    expect(Object.keys(ALLOWED).filter((f) => !unmarked.includes(f))).toEqual([]);
  });

  it('nothing plain Node runs (CLI, scripts, benches, sandbox worker, Playwright, proxy) loads a marked module', () => {
    const entries = plainNodeEntries();
    expect(entries.map(rel)).toEqual(
      expect.arrayContaining(['cli/main.ts', 'scripts/e2e-server.ts', 'scripts/migrate.ts', 'bench/invoke.ts', 'bench/agent-loop.ts', 'lib/sandbox/worker.ts']),
    );
    expect(entries.map(rel)).not.toContain('bench/search.ts'); // run with --conditions=react-server
    expect(markedReachedFrom(entries)).toEqual([]);
  });

  it('each ALLOWED module is loaded by one of those entry points (else it takes the marker)', () => {
    const loaded = new Set<string>();
    const stack = plainNodeEntries();
    for (const f of stack) loaded.add(f);
    while (stack.length) {
      for (const d of moduleInfo(stack.pop()!, false).deps) if (!loaded.has(d) && loaded.add(d)) stack.push(d);
    }
    expect(Object.keys(ALLOWED).filter((f) => !loaded.has(path.join(ROOT, f)))).toEqual([]);
  });

  it('no client component loads a marked module', () => {
    const clients = listTs(path.join(ROOT, 'app')).filter((f) => DIRECTIVE('client').test(fs.readFileSync(f, 'utf8')));
    expect(clients.length).toBeGreaterThan(10);
    expect(markedReachedFrom(clients, true)).toEqual([]);
  });

  it('the walk finds a marked module where there is one (the checker itself)', () => {
    expect(markedReachedFrom([path.join(ROOT, 'lib/server/index.ts')])).toContain('lib/server/index.ts');
    expect(markedReachedFrom([path.join(ROOT, 'instrumentation.ts')]).some((c) => c.startsWith('instrumentation.ts -> lib/runs/start-server-worker.ts'))).toBe(true);
  });
});
