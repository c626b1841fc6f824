// Dependency direction (CONVENTIONS.md "Our layout"): every library of lib/ has its own
// place in one order, from the ground up (LAYER); a library imports only libraries below
// it, never one above. lib/skills and lib/config import nothing of ours; app/ never
// reaches Prisma or lib/db; an import from one library (or from app/) into another goes
// through that library's public index.ts, which every folder of lib/ has, and a file never
// imports its own library's index (a barrel cycle: it takes its siblings directly); nothing
// in lib/ or app/ imports cli/ (CLI tests and helpers live with the CLI). Fails on any
// violation not in KNOWN below; an entry of KNOWN that no longer occurs fails too, so the
// list only shrinks.
// The picture of today's graph: the edges this test reads (allViolations, edgesOf).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');

/**
 * The order, from the ground up; a library may import only those with a lower number.
 * A library missing here fails the test (every folder of lib/ has its place).
 */
export const ORDER = [
  'skills', // formats -> canonical manifest: imports nothing of ours
  'errors', // the one error type
  'config', // settings from the environment: imports nothing of ours
  'metrics',
  'trace',
  'log',
  'forms',
  'db', // the Prisma client
  'principal', // who is asking, their address, the keys of either
  'limits', // rate limits and HTTP limits every floor above shares
  'sandbox',
  'render', // a skill's files highlighted and its markdown rendered on a thread of its own (bundled like the sandbox worker)
  'runtime', // the kernel
  'authz',
  'agent',
  'trust',
  'mcp',
  'auth',
  'session', // the next-auth instance and the current user (Next.js only)
  'teams',
  'evidence',
  'registry',
  'trusted-publishing', // a CI's OIDC token exchanged for a publish grant
  'runs',
  'server', // the one wiring module of a request
  'api', // withApi and route helpers
  'actions', // the server-action chain
] as const;
const LAYER: Record<string, number> = Object.fromEntries([...ORDER.map((lib, i) => [lib, i]), ['app', ORDER.length]]);
const NOTHING_OF_OURS = new Set(['skills', 'config']);

type Edge = { from: string; to: string; spec: string; fromLib: string; toLib: string; typeOnly: boolean };

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === 'node_modules' || e.name === 'generated' || e.name.startsWith('.')) continue;
      walk(p, out);
    } else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `app`, `cli`, a lib name (`runtime`, `errors` for lib/errors.ts), or null elsewhere. */
function libOf(rel: string): string | null {
  const parts = rel.split('/');
  if (parts[0] === 'app' || parts[0] === 'cli') return parts[0];
  if (parts[0] !== 'lib' || parts.length < 2) return null;
  return parts.length === 2 ? parts[1].replace(/(\.test)?\.tsx?$/, '') : parts[1];
}

const IMPORT = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function edgesOf(file: string, root = REPO): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const from = path.relative(root, file).split(path.sep).join('/');
  const fromLib = libOf(from);
  const edges: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    let target: string | null = null;
    if (spec.startsWith('@/')) target = spec.slice(2);
    else if (spec.startsWith('.'))
      target = path
        .relative(root, path.resolve(path.dirname(file), spec))
        .split(path.sep)
        .join('/');
    else if (/^(@prisma\/|\.prisma)/.test(spec)) target = 'PRISMA';
    if (!target || !fromLib) continue;
    const toLib = target === 'PRISMA' ? 'prisma' : libOf(target);
    if (!toLib) continue;
    edges.push({ from, to: target, spec, fromLib, toLib, typeOnly: Boolean(m[2]) });
  }
  return edges;
}

/** `inside` of lib/<name>/<inside>: '' or 'index' for the library's public entry. */
function insideOf(e: Edge): string {
  return e.to
    .replace(/\.(ts|tsx)$/, '')
    .split('/')
    .slice(2)
    .join('/');
}

/** Whether the import names a module of the library other than its index.ts. */
function pastIndex(e: Edge): boolean {
  const inside = insideOf(e);
  return inside !== '' && inside !== 'index';
}

/** What is wrong with one import, or null. */
function violation(e: Edge): string | null {
  const { fromLib, toLib } = e;
  if (toLib === 'cli') return `${fromLib === 'app' ? 'app/' : 'lib/'} never imports cli/ (the CLI's code and tests live in cli/)`;
  // tests and their helpers set up the floors above the one they test, and may reach into a library
  const isTest = /\.test\.tsx?$/.test(e.from) || e.from.includes('/testing/');
  if (fromLib === 'app') {
    if (toLib === 'prisma' || toLib === 'db') return 'app/ reaches the database only through lib operations';
    if (toLib !== 'app' && !isTest && pastIndex(e)) return `app/ imports lib/${toLib} past its index.ts`;
    return null;
  }
  if (toLib === 'prisma') return fromLib === 'db' ? null : 'only lib/db imports Prisma';
  if (toLib === 'app') return 'lib never imports app/';
  if (toLib === fromLib)
    return !isTest && e.to.split('/').length > 1 && !pastIndex(e) && e.from.split('/').length > 2
      ? `imports its own library's index (lib/${toLib}): take the sibling module directly`
      : null;
  if (NOTHING_OF_OURS.has(fromLib)) return `lib/${fromLib} imports nothing of ours`;
  if (!(fromLib in LAYER)) return `lib/${fromLib} has no place in ORDER (lib/dependency-direction.test.ts)`;
  if (!(toLib in LAYER)) return `lib/${toLib} has no place in ORDER (lib/dependency-direction.test.ts)`;
  // the order binds the library's own code, not its tests
  if (LAYER[toLib] > LAYER[fromLib] && !isTest) return `lib/${fromLib} (layer ${LAYER[fromLib]}) may not import lib/${toLib} (layer ${LAYER[toLib]}, above it)`;
  // tests and their helpers may reach into the library they set up
  if (!isTest && pastIndex(e)) return `imports lib/${toLib} past its index.ts`;
  return null;
}

/**
 * Deep imports that are right: a client component (bundled for the browser) takes one pure
 * module of a library whose index.ts pulls in server code. Each with its reason.
 */
const CLIENT_DEEP_IMPORTS = new Map<string, string>([
  [
    'app/(playground)/playground/runs/[id]/run-outcome-panel.tsx -> @/lib/agent/run-outcome',
    'rendered by the client run view; run-outcome.ts is pure, lib/agent/index.ts brings the agent loop and model providers into the browser bundle',
  ],
  [
    'app/(playground)/playground/draft-start.ts -> @/lib/forms/playground-start',
    'the playground form (a client component) fills its first task with it; lib/forms/index.ts brings example-args.ts (json-schema-faker, Ajv) into the browser bundle',
  ],
  [
    'app/(playground)/playground/playground-form.tsx -> @/lib/forms/playground-start',
    'a client component; lib/forms/index.ts brings example-args.ts (json-schema-faker, Ajv) into the browser bundle',
  ],
  [
    'app/_components/markdown.tsx -> @/lib/render/markdown-options',
    "the run view renders markdown in the browser with the options the server's render worker uses; lib/render/index.ts brings worker threads",
  ],
  ['app/_components/tool-form.tsx -> @/lib/forms/schema-fields', 'a client component; lib/forms/index.ts brings example-args.ts (json-schema-faker, Ajv) into the browser bundle'],
]);

/**
 * Violations that existed when every library got its own layer (issue 24), each with
 * where it should go. Remove a line when you fix it; add none.
 */
const KNOWN = new Set<string>([]);

/** A module that ends up in the browser bundle: 'use client', or imported by one (in app/). */
function isClientModule(rel: string, seen = new Set<string>()): boolean {
  if (seen.has(rel)) return false;
  seen.add(rel);
  if (/^\s*(?:\/\/[^\n]*\n\s*)*['"]use client['"]/.test(fs.readFileSync(path.join(REPO, rel), 'utf8'))) return true;
  const stem = rel.replace(/\.(ts|tsx)$/, '');
  return walk(path.join(REPO, 'app')).some((f) => {
    const importer = path.relative(REPO, f).split(path.sep).join('/');
    return edgesOf(f).some((e) => !e.typeOnly && e.to.replace(/\.(ts|tsx)$/, '') === stem) && isClientModule(importer, seen);
  });
}

function allViolations(root = REPO): string[] {
  const files = [...walk(path.join(root, 'app')), ...walk(path.join(root, 'lib'))];
  const out = new Set<string>();
  for (const d of fs.readdirSync(path.join(root, 'lib'), { withFileTypes: true })) {
    if (d.isDirectory() && !fs.existsSync(path.join(root, 'lib', d.name, 'index.ts')))
      out.add(`lib/${d.name}: has no index.ts (its public surface, which other libraries and app/ import)`);
  }
  for (const f of files) {
    for (const e of edgesOf(f, root)) {
      const why = violation(e);
      if (why && !CLIENT_DEEP_IMPORTS.has(`${e.from} -> ${e.spec}`)) out.add(`${e.from} -> ${e.spec}: ${why}`);
    }
  }
  return [...out].sort();
}

describe('dependency direction', () => {
  const found = allViolations();
  it('no import breaks the direction, reaches the database from app/ or skips a public index', () => {
    expect(found.filter((v) => !KNOWN.has(v))).toEqual([]);
  });
  it('every known exception still exists (fixed ones are removed from KNOWN)', () => {
    expect([...KNOWN].filter((v) => !found.includes(v))).toEqual([]);
  });
  it('every allowed client-side deep import still exists, in a client module', () => {
    for (const key of CLIENT_DEEP_IMPORTS.keys()) {
      const [from, spec] = key.split(' -> ');
      const edge = edgesOf(path.join(REPO, from)).find((e) => e.spec === spec);
      expect(edge && violation(edge), key).toMatch(/past its index/);
      expect(isClientModule(from), `${from} is bundled for the browser`).toBe(true);
    }
  });
  it('catches a violation (the checker itself)', () => {
    const e = (from: string, to: string): Edge => ({ from, to, spec: to, fromLib: libOf(from)!, toLib: libOf(to) ?? 'prisma', typeOnly: false });
    expect(violation(e('lib/runtime/x.ts', 'lib/registry/get-skill'))).toMatch(/may not import lib\/registry/);
    expect(violation(e('app/page.tsx', 'lib/db/client'))).toMatch(/database/);
    expect(violation(e('lib/skills/x.ts', 'lib/log'))).toMatch(/imports nothing of ours/);
    expect(violation(e('lib/db/x.ts', 'lib/registry/seed-bundled-skills'))).toMatch(/lib\/db \(layer \d+\) may not import lib\/registry/);
    expect(violation(e('lib/auth/x.ts', 'lib/api/with-api'))).toMatch(/lib\/auth .* may not import lib\/api/);
    expect(violation(e('lib/config/x.ts', 'lib/errors'))).toMatch(/imports nothing of ours/);
    expect(violation(e('lib/newfolder/x.ts', 'lib/errors'))).toMatch(/no place in ORDER/);
    expect(violation(e('lib/runs/x.ts', 'lib/runtime/manager'))).toMatch(/past its index/);
    expect(violation(e('lib/runs/x.ts', 'lib/runtime'))).toBeNull();
    expect(violation(e('app/page.tsx', 'lib/runtime/planner'))).toMatch(/app\/ imports lib\/runtime past its index/);
    expect(violation(e('app/page.tsx', 'lib/runtime'))).toBeNull();
    expect(violation(e('app/page.tsx', 'lib/trace/trace-model'))).toMatch(/app\/ imports lib\/trace past its index/);
    expect(violation(e('lib/registry/x.ts', 'lib/registry'))).toMatch(/its own library's index/);
    expect(violation(e('lib/registry/x.ts', 'lib/registry/get-skill'))).toBeNull();
    expect(violation(e('lib/auth/x.test.ts', 'cli/commands/run'))).toMatch(/lib\/ never imports cli\//);
    expect(violation(e('app/page.tsx', 'cli/main'))).toMatch(/app\/ never imports cli\//);
  });
  it('gives every folder of lib/ a place in the order', () => {
    const libs = fs
      .readdirSync(path.join(REPO, 'lib'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(libs.filter((lib) => !(lib in LAYER))).toEqual([]);
  });
  it('fails on a violation planted in a tree (a low floor importing a high one, a deep import)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'direction-'));
    try {
      const put = (rel: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      };
      put('app/page.tsx', "import { getSkill } from '@/lib/registry';\n");
      put('lib/registry/index.ts', "export { getSkill } from './get-skill';\n");
      put('lib/registry/get-skill.ts', "import { limits } from '../limits';\nexport const getSkill = () => limits;\n");
      put('lib/limits/index.ts', 'export const limits = 1;\n');
      put('lib/principal/index.ts', 'export {};\n');
      put('lib/api/index.ts', 'export {};\n');
      expect(allViolations(root)).toEqual([]);
      put('lib/limits/planted.ts', "import { getSkill } from '../registry';\nexport const planted = getSkill;\n");
      put('lib/principal/planted.ts', "import { limits } from '../limits/index';\nimport { getSkill } from '../registry/get-skill';\nexport const p = [limits, getSkill];\n");
      expect(allViolations(root)).toEqual([
        `lib/limits/planted.ts -> ../registry: lib/limits (layer ${LAYER.limits}) may not import lib/registry (layer ${LAYER.registry}, above it)`,
        `lib/principal/planted.ts -> ../limits/index: lib/principal (layer ${LAYER.principal}) may not import lib/limits (layer ${LAYER.limits}, above it)`,
        `lib/principal/planted.ts -> ../registry/get-skill: lib/principal (layer ${LAYER.principal}) may not import lib/registry (layer ${LAYER.registry}, above it)`,
      ]);
      put('lib/api/planted.ts', "import { getSkill } from '../registry/get-skill';\nexport const q = getSkill;\n");
      expect(allViolations(root)).toContain('lib/api/planted.ts -> ../registry/get-skill: imports lib/registry past its index.ts');
      // a folder without an index, and a file that takes its own library's index
      put('lib/teams/planted.ts', 'export const t = 1;\n');
      put('lib/registry/own.ts', "import { getSkill } from '.';\nexport const own = getSkill;\n");
      expect(allViolations(root)).toContain('lib/teams: has no index.ts (its public surface, which other libraries and app/ import)');
      expect(allViolations(root)).toContain("lib/registry/own.ts -> .: imports its own library's index (lib/registry): take the sibling module directly");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
