// skillyard.lock: what `skillyard add` installed, so that `skillyard install` can restore
// exactly that set anywhere. JSON, keys sorted, one entry per skill:
//   { "lockfileVersion": 1, "skills": { "@scope/name": { version, range, resolved,
//     integrity, path, agent, permissions } } }
// `resolved` is the tarball URL (it names the registry), `integrity` its sha512, `path`
// the folder it was unpacked into (relative to the lock's folder, or absolute outside it),
// `permissions` what the version declares (cli/skill-permissions.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SkillPermissions } from './skill-permissions';

export const LOCK_FILE = 'skillyard.lock';

export type LockEntry = {
  version: string;
  /** the range `update` moves within (`^1.2.0` unless an exact version or range was asked for) */
  range: string;
  resolved: string;
  integrity: string;
  path: string;
  agent: string | null;
  permissions: SkillPermissions;
};

export type Lock = { lockfileVersion: 1; skills: Record<string, LockEntry> };

export class LockError extends Error {
  readonly code = 'lock/invalid';
}

export function lockPath(dir: string): string {
  return path.join(dir, LOCK_FILE);
}

const str = (v: unknown) => typeof v === 'string' && v.length > 0;
const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The lock in `dir`; null when there is none. A lock that cannot be read is a LockError (never silently empty). */
export function readLock(dir: string): Lock | null {
  const file = lockPath(dir);
  if (!existsSync(file)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new LockError(`${file} is not JSON (${(e as Error).message}); restore it from version control`);
  }
  const lock = data as Lock;
  if (!lock || lock.lockfileVersion !== 1 || typeof lock.skills !== 'object' || lock.skills === null) {
    throw new LockError(`${file} is not a skillyard lock (lockfileVersion 1)`);
  }
  for (const [name, e] of Object.entries(lock.skills)) {
    const p = e?.permissions;
    if (!/^@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/.test(name) || !str(e?.version) || !str(e?.range) || !str(e?.resolved) || !str(e?.integrity) || !str(e?.path)) {
      throw new LockError(`${file}: the entry "${name}" lacks a name, version, range, resolved URL, integrity or path`);
    }
    if (!p || !strings(p.capabilities) || !strings(p.network) || !strings(p.tokens) || typeof p.subprocess !== 'boolean') {
      throw new LockError(`${file}: the entry "${name}" has no valid permissions`);
    }
  }
  return lock;
}

/** The lock's exact text: keys sorted, so the same set always gives the same bytes. */
export function serializeLock(lock: Lock): string {
  const skills: Record<string, LockEntry> = {};
  for (const name of Object.keys(lock.skills).sort()) {
    const e = lock.skills[name];
    skills[name] = {
      version: e.version,
      range: e.range,
      resolved: e.resolved,
      integrity: e.integrity,
      path: e.path,
      agent: e.agent,
      permissions: { capabilities: e.permissions.capabilities, network: e.permissions.network, tokens: e.permissions.tokens, subprocess: e.permissions.subprocess },
    };
  }
  return JSON.stringify({ lockfileVersion: 1, skills }, null, 2) + '\n';
}

export function writeLock(dir: string, lock: Lock): void {
  const file = lockPath(dir);
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, serializeLock(lock));
  renameSync(tmp, file);
}

/** `path` as the lock stores it: relative to the lock's folder when inside it. */
export function lockRelative(dir: string, target: string): string {
  const rel = path.relative(dir, target);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : target;
}

/** Where an entry unpacks, refusing a path that climbs out of the lock's folder by `..` (a hand-edited lock). */
export function entryTarget(dir: string, entry: LockEntry): string {
  if (path.isAbsolute(entry.path)) return entry.path;
  const target = path.resolve(dir, entry.path);
  if (!target.startsWith(path.resolve(dir) + path.sep)) throw new LockError(`the lock's path "${entry.path}" leaves ${dir}`);
  return target;
}

/** The lock in `dir` for a command that needs one; null after saying on stderr why there is none usable. */
export function readLockFor(command: string, dir: string): Lock | null {
  try {
    const lock = readLock(dir);
    if (!lock) process.stderr.write(`skillyard ${command}: no skillyard.lock here\n`);
    return lock;
  } catch (e) {
    if (!(e instanceof LockError)) throw e;
    process.stderr.write(`skillyard ${command}: ${e.message}\n`);
    return null;
  }
}
