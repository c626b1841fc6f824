// Builds native/shm-lane.c into native/build/shm-lane.node: the shared memory the sandbox
// pool and its workers exchange frames through (lib/sandbox/shm-lane.ts). Runs at install
// (postinstall), at `npm start`, and with `npm run build:lane`. The binary is stamped
// with the sha256 of the source (its `source()`), and a build is current when the stamp
// matches the source beside it. Without a C compiler, on Linux x64 the prebuilt copy in
// native/prebuilt is used when it was built from the same source; otherwise the helper is
// missing and the pool uses pipes (slower, same behaviour). Never fails the install.
// Usage: node scripts/build-lane.mjs [--prebuilt]   (--prebuilt: also refresh native/prebuilt)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'native', 'shm-lane.c');
const out = path.join(root, 'native', 'build', 'shm-lane.node');
const prebuiltFor = (arch) => path.join(root, 'native', 'prebuilt', `linux-${arch}`, 'shm-lane.node');

/** sha256 of the helper's source, as the binary is stamped with */
export const laneSourceHash = (file = source) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * The stamp of the helper at `file`, or null when it is missing or does not load. Read in
 * a child process: a helper loaded here would stay loaded, and a later load of the same
 * path in this process (a rebuilt helper) would get the old one.
 */
function stampOf(file) {
  if (!existsSync(file)) return null;
  const script = 'const m = { exports: {} }; process.dlopen(m, process.argv[1]); process.stdout.write(String(m.exports.source()));';
  const r = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? r.stdout : null;
}

function compile(hash, to) {
  // CC may carry arguments ("ccache gcc")
  const [cc, ...ccArgs] = (process.env.CC || 'cc').trim().split(/\s+/);
  mkdirSync(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.tmp`;
  const args = [...ccArgs, '-O2', '-Wall', '-shared', '-fPIC', '-s', `-DSOURCE_SHA256="${hash}"`, '-o', tmp, source];
  const r = spawnSync(cc, args, { encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0) {
    renameSync(tmp, to); // atomic: a concurrent install never loads half a file
    return null;
  }
  rmSync(tmp, { force: true });
  return r.error ? `${cc} not found` : (r.stderr || '').trim().split('\n').slice(-3).join(' | ');
}

/**
 * Builds the helper unless the current one matches its source; `say` gets one line (none
 * when `quietWhenFresh` and nothing changed). Never throws: whatever goes wrong (no
 * compiler, a read-only folder, no source in a deployment that ships only the build) is
 * one line, and the pool then uses what is there or pipes.
 */
export function buildLane(options = {}) {
  const say = options.say ?? ((line) => console.log(`skillyard: ${line}`));
  try {
    buildLaneOrThrow({ ...options, say });
  } catch (error) {
    say(`shared-memory sandbox lane not built (${error instanceof Error ? error.message : String(error)}); sandbox workers use pipes unless a built helper matches`);
  }
}

function buildLaneOrThrow({ say, quietWhenFresh = false, refreshPrebuilt = false }) {
  if (process.platform !== 'linux') return say('shared-memory sandbox lane: Linux only; sandbox workers use pipes');
  // a deployment that ships only the built helper: nothing to build, the pool checks what is there
  if (!existsSync(source)) return quietWhenFresh || say('shared-memory sandbox lane: no source to build from (native/shm-lane.c)');
  const hash = laneSourceHash();
  if (!refreshPrebuilt && stampOf(out) === hash) return quietWhenFresh || say('shared-memory sandbox lane: up to date');
  const why = compile(hash, out);
  if (why === null) {
    if (refreshPrebuilt) {
      mkdirSync(path.dirname(prebuiltFor(process.arch)), { recursive: true });
      copyFileSync(out, prebuiltFor(process.arch));
      say(`prebuilt helper refreshed: ${path.relative(root, prebuiltFor(process.arch))}`);
    }
    return say('shared-memory sandbox lane built (native/build/shm-lane.node)');
  }
  const prebuilt = prebuiltFor(process.arch);
  if (stampOf(prebuilt) === hash) {
    mkdirSync(path.dirname(out), { recursive: true });
    copyFileSync(prebuilt, `${out}.${process.pid}.tmp`);
    renameSync(`${out}.${process.pid}.tmp`, out);
    return say(`shared-memory sandbox lane: no C compiler (${why}), using the prebuilt helper built from the same source (${path.relative(root, prebuilt)})`);
  }
  rmSync(out, { force: true }); // a helper from another source must not be used
  say(`shared-memory sandbox lane not built (${why}); sandbox workers use pipes (about 25% slower per warm tool call)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildLane({ refreshPrebuilt: process.argv.includes('--prebuilt') });
