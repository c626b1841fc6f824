// Dependency direction (CONVENTIONS.md): app → lib/{registry,runs,agent,auth,server,...}
// → lib/runtime → lib/{sandbox,skills}. lib/skills and lib/config import nothing of ours,
// lib/log only lib/config; lib/db imports only itself (and lib/log, lib/config); app/
// never reaches Prisma or lib/db; an import
// from one library (or from app/) into another goes through that library's public
// index.ts; nothing in lib/ or app/ imports cli/ (CLI tests and helpers live with the CLI).
// Fails on any violation not in KNOWN below; an entry of KNOWN that no longer occurs
// fails too, so the list only shrinks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Higher may import lower or equal (peers), never higher. Shared leaves (db, log, errors) are importable by all. Unlisted libraries count as layer 3. */
const LAYER: Record<string, number> = {
  app: 4,
  registry: 3, runs: 3, agent: 3, auth: 3, authz: 3, server: 3, api: 3, mcp: 3, teams: 3,
  runtime: 2,
  sandbox: 1, skills: 1,
  db: 0, log: 0, errors: 0, config: 0,
};
const LEAVES = new Set(['db', 'log', 'errors', 'config']);

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
  return parts.length === 2 ? parts[1].replace(/\.tsx?$/, '') : parts[1];
}

const IMPORT = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function edgesOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const from = path.relative(ROOT, file).split(path.sep).join('/');
  const fromLib = libOf(from);
  const edges: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    let target: string | null = null;
    if (spec.startsWith('@/')) target = spec.slice(2);
    else if (spec.startsWith('.')) target = path.relative(ROOT, path.resolve(path.dirname(file), spec)).split(path.sep).join('/');
    else if (/^(@prisma\/|\.prisma)/.test(spec)) target = 'PRISMA';
    if (!target || !fromLib) continue;
    const toLib = target === 'PRISMA' ? 'prisma' : libOf(target);
    if (!toLib) continue;
    edges.push({ from, to: target, spec, fromLib, toLib, typeOnly: Boolean(m[2]) });
  }
  return edges;
}

/** `inside` of lib/<name>/<inside>: '' or 'index' for the library's public entry. */
function pastIndex(e: Edge): boolean {
  if (LEAVES.has(e.toLib) || !fs.existsSync(path.join(ROOT, 'lib', e.toLib, 'index.ts'))) return false;
  const inside = e.to.replace(/\.(ts|tsx)$/, '').split('/').slice(2).join('/');
  return inside !== '' && inside !== 'index';
}

/** What is wrong with one import, or null. */
function violation(e: Edge): string | null {
  const { fromLib, toLib } = e;
  if (toLib === 'cli') return `${fromLib === 'app' ? 'app/' : 'lib/'} never imports cli/ (the CLI's code and tests live in cli/)`;
  if (fromLib === 'app') {
    if (toLib === 'prisma' || toLib === 'db') return 'app/ reaches the database only through lib operations';
    if (toLib !== 'app' && pastIndex(e)) return `app/ imports lib/${toLib} past its index.ts`;
    return null;
  }
  if (toLib === 'prisma') return fromLib === 'db' ? null : 'only lib/db imports Prisma';
  if (toLib === fromLib || toLib === 'app') return toLib === 'app' ? 'lib never imports app/' : null;
  if (fromLib === 'skills' || fromLib === 'config') return `lib/${fromLib} imports nothing of ours`;
  if (fromLib === 'log' && toLib !== 'config') return 'lib/log imports only lib/config';
  if (fromLib === 'db' && toLib !== 'log' && toLib !== 'config') return 'lib/db imports only lib/db, lib/log and lib/config';
  // a library not listed is a server-side one (layer 3), like lib/registry
  if ((LAYER[toLib] ?? 3) > (LAYER[fromLib] ?? 3)) return `lib/${fromLib} (layer ${LAYER[fromLib]}) may not import lib/${toLib} (layer ${LAYER[toLib]})`;
  // tests and their helpers may reach into the library they set up
  const isTest = /\.test\.tsx?$/.test(e.from) || e.from.includes('/testing/');
  if (!isTest && pastIndex(e)) return `imports lib/${toLib} past its index.ts`;
  return null;
}

/**
 * Deep imports that are right: a client component (bundled for the browser) takes one pure
 * module of a library whose index.ts pulls in server code. Each with its reason.
 */
const CLIENT_DEEP_IMPORTS = new Map<string, string>([
  [
    "app/(playground)/playground/runs/[id]/run-outcome-panel.tsx -> @/lib/agent/run-outcome",
    'rendered by the client run view; run-outcome.ts is pure, lib/agent/index.ts brings the agent loop and model providers into the browser bundle',
  ],
]);

/**
 * Violations that existed when this test was written, in files other engineers were
 * changing at the time. Remove a line when you fix it; add none.
 */
const KNOWN = new Set<string>([
]);

/** A module that ends up in the browser bundle: 'use client', or imported by one (in app/). */
function isClientModule(rel: string, seen = new Set<string>()): boolean {
  if (seen.has(rel)) return false;
  seen.add(rel);
  if (/^\s*(?:\/\/[^\n]*\n\s*)*['"]use client['"]/.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) return true;
  const stem = rel.replace(/\.(ts|tsx)$/, '');
  return walk(path.join(ROOT, 'app')).some((f) => {
    const importer = path.relative(ROOT, f).split(path.sep).join('/');
    return edgesOf(f).some((e) => !e.typeOnly && e.to.replace(/\.(ts|tsx)$/, '') === stem) && isClientModule(importer, seen);
  });
}

function allViolations(): string[] {
  const files = [...walk(path.join(ROOT, 'app')), ...walk(path.join(ROOT, 'lib'))];
  const out = new Set<string>();
  for (const f of files) {
    for (const e of edgesOf(f)) {
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
      const edge = edgesOf(path.join(ROOT, from)).find((e) => e.spec === spec);
      expect(edge && violation(edge), key).toMatch(/past its index/);
      expect(isClientModule(from), `${from} is bundled for the browser`).toBe(true);
    }
  });
  it('catches a violation (the checker itself)', () => {
    const e = (from: string, to: string): Edge => ({ from, to, spec: to, fromLib: libOf(from)!, toLib: libOf(to) ?? 'prisma', typeOnly: false });
    expect(violation(e('lib/runtime/x.ts', 'lib/registry/get-skill'))).toMatch(/may not import lib\/registry/);
    expect(violation(e('app/page.tsx', 'lib/db/client'))).toMatch(/database/);
    expect(violation(e('lib/skills/x.ts', 'lib/log'))).toMatch(/imports nothing of ours/);
    expect(violation(e('lib/db/x.ts', 'lib/registry/seed-bundled-skills'))).toMatch(/lib\/db imports only/);
    expect(violation(e('lib/runs/x.ts', 'lib/runtime/manager'))).toMatch(/past its index/);
    expect(violation(e('lib/runs/x.ts', 'lib/runtime'))).toBeNull();
    expect(violation(e('app/page.tsx', 'lib/runtime/planner'))).toMatch(/app\/ imports lib\/runtime past its index/);
    expect(violation(e('app/page.tsx', 'lib/runtime'))).toBeNull();
    expect(violation(e('app/page.tsx', 'lib/trace/trace-model'))).toBeNull(); // lib/trace has no index.ts
    expect(violation(e('lib/auth/x.test.ts', 'cli/commands/run'))).toMatch(/lib\/ never imports cli\//);
    expect(violation(e('app/page.tsx', 'cli/main'))).toMatch(/app\/ never imports cli\//);
  });
});
