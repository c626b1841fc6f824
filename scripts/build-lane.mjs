// Builds native/shm-lane.c into native/build/shm-lane.node: the shared memory the sandbox
// pool and its workers exchange frames through (lib/sandbox/shm-lane.ts). Runs at install
// (postinstall) and with `npm run build:lane`. Never fails the install: without a C
// compiler, or off Linux, it says so and the pool uses pipes (slower, same behaviour).
// Usage: node scripts/build-lane.mjs [--quiet]
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'native', 'shm-lane.c');
const out = path.join(root, 'native', 'build', 'shm-lane.node');
const quiet = process.argv.includes('--quiet');
const say = (line) => quiet || console.log(`skillyard: ${line}`);

function fresh() {
  try {
    return statSync(out).mtimeMs >= statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

if (process.platform !== 'linux') {
  say('shared-memory sandbox lane: Linux only; sandbox workers use pipes');
} else if (fresh()) {
  say('shared-memory sandbox lane: up to date');
} else {
  const cc = process.env.CC || 'cc';
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const r = spawnSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', '-o', tmp, source], { encoding: 'utf8' });
  if (r.status === 0) {
    renameSync(tmp, out); // atomic: a concurrent install never loads half a file
    say('shared-memory sandbox lane built (native/build/shm-lane.node)');
  } else {
    rmSync(tmp, { force: true });
    const why = r.error ? `${cc} not found` : (r.stderr || '').trim().split('\n').slice(-3).join(' | ');
    say(`shared-memory sandbox lane not built (${why}); sandbox workers use pipes (about 2x slower per warm tool call)`);
  }
}
