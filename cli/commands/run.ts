// `skillyard run <tool> --skill <path> --args '<json>' [--json]`: runs a local skill's tool
// through the full kernel pipeline with no server: the sandbox in-process (or forked workers
// when this process lacks --no-node-snapshot) and in-memory capability providers.
// Prints {ok: true, result} or {ok: false, error: {code, message}}; exit 0 ok, 1 failed, 2 usage.

import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { readSkillsFromPath } from '../../lib/skills';
import { createLocalRuntime, isolatesInProcess } from '../local-runtime';
import { toRuntimeError, type HeldToken, type LoadedSkill, type ObjectComponent } from '../../lib/runtime';
import type { SkillManifest } from '../../lib/skills/types';
import { exitCodeFor } from '../../lib/errors';

export const name = 'run';
export const summary = 'run a tool of a local skill through the full pipeline (no server)';
export const usage = `Usage: skillyard run <tool> --skill <path> [--skill <path>...] [--args '<json>'] [options]

  <tool>               tool name, or skill/tool
  --skill <path>       a skill folder, a .skill.md/.skill.js/.skill.ts file, or a Rye .ai/tools file
  --args <json>        the tool's arguments as a JSON object (default {})
  --json               print one line of JSON
  --allow-subprocess   run Python/bash handlers (also SKILLYARD_ALLOW_SUBPROCESS=1)
  --scope <scope>      the registry scope the skills run as (tools mint only @<scope>/... tokens)
  --env NAME=VALUE     a workspace secret for the environment capability (repeatable)
  --token ISSUER[:CLAIM,...]=SECRET
                       hold a token, to try a token-gated tool (repeatable; claims default
                       "account"; SECRET env:NAME reads it from the environment), e.g.
                       --token @oauth/github:account,repo=env:GITHUB_TOKEN

The net capability reaches public addresses only; SKILLYARD_NET_ALLOW=<CIDR,...> allows
private or loopback ranges (for example 127.0.0.1/32 for a local API).

Prints {"ok": true, "result": ...} or {"ok": false, "error": {"code", "message"}}.
Exit status: 0 the tool ran, 1 it failed, 2 usage or unreadable skill.`;

type Parsed = { tool: string; skills: string[]; args: unknown; json: boolean; allowSubprocess: boolean; scope: string | null; env: Record<string, string>; tokens: HeldToken[] };

class UsageError extends Error {}

function parseArgv(argv: string[]): Parsed {
  const out: Parsed = { tool: '', skills: [], args: {}, json: false, allowSubprocess: process.env.SKILLYARD_ALLOW_SUBPROCESS === '1', scope: null, env: {}, tokens: [] };
  const value = (i: number, flag: string) => {
    const v = argv[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--skill') out.skills.push(value(i++, a));
    else if (a === '--args') {
      const raw = value(i++, a);
      try {
        out.args = JSON.parse(raw);
      } catch (e) {
        throw new UsageError(`--args is not JSON: ${(e as Error).message}`);
      }
    } else if (a === '--json') out.json = true;
    else if (a === '--allow-subprocess') out.allowSubprocess = true;
    else if (a === '--scope') out.scope = value(i++, a).replace(/^@/, '');
    else if (a === '--env') {
      const kv = value(i++, a);
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UsageError('--env takes NAME=VALUE');
      out.env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (a === '--token') out.tokens.push(parseHeldToken(value(i++, a), out.tokens.length));
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else if (!out.tool) out.tool = a;
    else throw new UsageError(`unexpected argument ${a}`);
  }
  if (!out.tool) throw new UsageError('which tool? (skillyard run <tool> --skill <path>)');
  if (out.skills.length === 0) throw new UsageError('--skill <path> is required');
  return out;
}

/** `--token ISSUER[:CLAIM,...]=SECRET` (SECRET `env:NAME` reads the environment) as a held token. */
export function parseHeldToken(spec: string, index = 0, env: Record<string, string | undefined> = process.env): HeldToken {
  const m = /^(@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9._-]*)(?::([^=]+))?=(.+)$/.exec(spec);
  if (!m) throw new UsageError('--token takes ISSUER[:CLAIM,...]=SECRET, e.g. @oauth/github:account,repo=env:GITHUB_TOKEN');
  const [, issuer, claims, raw] = m;
  let secret = raw;
  if (raw.startsWith('env:')) {
    const v = env[raw.slice(4)];
    if (!v) throw new UsageError(`--token ${issuer}: the environment variable ${raw.slice(4)} is not set`);
    secret = v;
  }
  const list = claims
    ? claims
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
    : ['account'];
  return { id: `cli-${index + 1}`, issuer, claims: list, expiresAt: null, secret };
}

/** The folder package-relative paths are relative to, for a path given on the command line. */
async function packageRoot(input: string): Promise<string> {
  const abs = path.resolve(input);
  const st = await fsp.stat(abs);
  if (st.isDirectory()) return abs;
  const parts = abs.split(path.sep);
  const ai = parts.lastIndexOf('.ai');
  if (ai > 0 && parts[ai + 1] === 'tools') return parts.slice(0, ai).join(path.sep) || path.sep;
  return path.dirname(abs);
}

function diskBytes(root: string) {
  return async (rel: string): Promise<Uint8Array> => {
    const full = path.resolve(root, rel);
    if (full !== root && !full.startsWith(root + path.sep)) throw new Error(`${rel} is outside the package`);
    const st = await fsp.lstat(full);
    if (st.isSymbolicLink()) throw new Error(`${rel} is a symbolic link`);
    return new Uint8Array(await fsp.readFile(full));
  };
}

function diskReader(root: string) {
  const bytes = diskBytes(root);
  return async (rel: string) => Buffer.from(await bytes(rel)).toString('utf8');
}

export async function loadSkills(paths: string[], scope: string | null): Promise<LoadedSkill[]> {
  const out: LoadedSkill[] = [];
  for (const p of paths) {
    const res = await readSkillsFromPath(p);
    const fatal = res.diagnostics.filter((d) => d.severity === 'error');
    if (res.skills.length === 0) {
      throw new UsageError(`no skill at ${p}${fatal.length ? `: ${fatal.map((d) => d.message).join('; ')}` : ''}`);
    }
    const root = await packageRoot(p);
    for (const manifest of res.skills) out.push({ manifest, scope, readFile: diskReader(skillRoot(root, manifest)), readBytes: diskBytes(skillRoot(root, manifest)) });
  }
  return out;
}

// A tree of several skills: each skill's files are relative to its own folder.
function skillRoot(root: string, m: SkillManifest): string {
  const probe = m.files[0];
  if (!probe || existsSync(path.join(root, probe))) return root;
  const named = path.join(root, m.name);
  return existsSync(path.join(named, probe)) ? named : root;
}

export async function run(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseArgv(argv);
  } catch (e) {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    process.stderr.write(`${(e as Error).message}\n\n${usage}\n`);
    return 2;
  }
  const print = (value: unknown) => process.stdout.write(`${parsed.json ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);

  let skills: LoadedSkill[];
  try {
    skills = await loadSkills(parsed.skills, parsed.scope);
  } catch (e) {
    const message = e instanceof UsageError ? e.message : `cannot read skill: ${(e as Error).message}`;
    print({ ok: false, error: { code: 'skill/unreadable', message } });
    return 2;
  }

  // Isolates in this process need --no-node-snapshot; without it use forked workers (they get the flag).
  const objects: ObjectComponent[] = [];
  const { manager, sandbox } = createLocalRuntime({
    skills,
    caller: { id: 'local', kind: 'user', tokens: parsed.tokens },
    inProcess: isolatesInProcess(),
    workers: 1,
    allowSubprocess: parsed.allowSubprocess,
    workDir: process.cwd(),
    env: parsed.env,
    onObject: (o) => void objects.push(o),
  });
  try {
    const result = await manager.invoke(parsed.tool, parsed.args);
    print(objects.length ? { ok: true, result, objects } : { ok: true, result });
    return 0;
  } catch (e) {
    const err = toRuntimeError(e);
    print({ ok: false, error: { code: err.code, message: err.message } });
    return exitCodeFor(err.code);
  } finally {
    await sandbox.close();
  }
}

export default { name, summary, usage, run };
