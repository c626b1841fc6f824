// Builds native/shm-lane.c into native/build/shm-lane.node: the shared memory the sandbox
// pool and its workers exchange frames through (lib/sandbox/shm-lane.ts). Runs at install
// (postinstall), at `npm start` when the source is newer than the build, and with
// `npm run build:lane`. Never fails: without a C compiler, or off Linux, it says so and
// the pool uses pipes (slower, same behaviour).
// Usage: node scripts/build-lane.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'native', 'shm-lane.c');
const out = path.join(root, 'native', 'build', 'shm-lane.node');

function fresh() {
  try {
    return statSync(out).mtimeMs >= statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

/** Builds the helper when it is missing or older than its source; `say` gets one line, or none when `quietWhenFresh` and nothing changed. */
export function buildLane({ say = (line) => console.log(`skillyard: ${line}`), quietWhenFresh = false } = {}) {
  if (process.platform !== 'linux') return say('shared-memory sandbox lane: Linux only; sandbox workers use pipes');
  if (fresh()) return quietWhenFresh || say('shared-memory sandbox lane: up to date');
  const cc = process.env.CC || 'cc';
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const r = spawnSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', '-o', tmp, source], { encoding: 'utf8' });
  if (r.status === 0) {
    renameSync(tmp, out); // atomic: a concurrent install never loads half a file
    return say('shared-memory sandbox lane built (native/build/shm-lane.node)');
  }
  rmSync(tmp, { force: true });
  const why = r.error ? `${cc} not found` : (r.stderr || '').trim().split('\n').slice(-3).join(' | ');
  say(`shared-memory sandbox lane not built (${why}); sandbox workers use pipes (about 25% slower per warm tool call)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildLane();
