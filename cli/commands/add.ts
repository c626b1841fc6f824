// `skillyard add @scope/name[@version|tag|range] [--agent claude|...] [--dir skills]`:
// downloads a version, checks its integrity (and its Rye signature where it has one),
// unpacks it where the agent loads skills (or into <dir>/<name>/), and records it in
// skillyard.lock so that `skillyard install` restores the same bytes anywhere.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { UsageError, type Command } from '../command';
import { AGENTS, agentSkillsDir, isAgentName, mcpRegistrationFor } from '../agents';
import { FetchError, fetchPackage } from '../fetch-package';
import { LockError, lockRelative, readLock, writeLock, type Lock } from '../lockfile';
import { configDir } from '../registry-client';
import { permissionsOf } from '../skill-permissions';
import { permissionChange } from '../permission-change';
import { styleFor } from '../style';
import { parsePackageRef, registryClient } from '../registry-client';
import { unpackInto, UnpackError } from '../unpack';

const usage = `Usage: skillyard add @scope/name[@version-or-range] [--agent <agent>] [--global] [--dir skills] [--force]

Download a skill from the registry, unpack it, and record it in skillyard.lock.
  @scope/name            the latest version
  @scope/name@1.2.3      an exact version (yanked versions too)
  @scope/name@^1.2       the highest version in a range (never a yanked one)
  @scope/name@next       a dist-tag

Options:
  --agent <agent>    unpack where the agent loads Agent Skills, in this project:
                       claude    .claude/skills/<name>     (user: ~/.claude/skills)
                       codex     .agents/skills/<name>     (user: ~/.agents/skills)
                       cursor    .cursor/skills/<name>     (user: ~/.cursor/skills)
                       copilot   .github/skills/<name>     (user: ~/.copilot/skills)
                       opencode  .opencode/skills/<name>   (user: ~/.config/opencode/skills)
                     A skill in another format is refused, with the MCP registration
                     that gives the agent its tools instead.
  --global           the agent's user-level folder; the lock is then ~/.skillyard/skillyard.lock
  --dir <dir>        without --agent: where skills live (default: skills)
  --force            replace the skill's folder when it exists and the lock does not name it
  --yes              for a skill already locked at another version: accept a version that
                     may do more (its permission diff is printed first, as by \`update\`)
  --keys <dir>       trust the Ed25519 public keys in <dir> for Rye signatures (repeatable)
  --registry <url>   the registry (default SKILLYARD_REGISTRY, the login's registry, or http://127.0.0.1:3000)
  --json             print the result as JSON

The download's sha512 integrity and the registry's signed statement about it
(docs/trust.md) are checked before anything is written; a signed Rye skill whose
signature does not verify is refused. Yanked and deprecated versions warn.
Exit status: 0 added, 1 failed, 2 usage error.
`;

/** The range `update` may move within: what was asked, or ^version for latest and tags. */
function rangeFor(spec: string | null, version: string): string {
  if (spec && (semver.valid(spec) || semver.validRange(spec))) return spec;
  return `^${version}`;
}

export const add: Command = {
  name: 'add',
  summary: 'download a skill from the registry into an agent or skills folder (and skillyard.lock)',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        agent: { type: 'string' },
        global: { type: 'boolean' },
        dir: { type: 'string' },
        force: { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        keys: { type: 'string', multiple: true },
        registry: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one skill, like @scope/name or @scope/name@^1.0.0');
    const ref = parsePackageRef(positionals[0]);
    if (!ref) throw new UsageError(`"${positionals[0]}" is not a skill reference like @scope/name[@version]`);
    const agent = values.agent?.toLowerCase() ?? null;
    if (agent !== null && !isAgentName(agent)) throw new UsageError(`--agent is one of ${Object.keys(AGENTS).join(', ')}`);
    if (values.global && !agent) throw new UsageError('--global needs --agent (the agent whose user-level folder to use)');
    if (agent && values.dir) throw new UsageError('--dir and --agent do not go together: the agent decides the folder');
    const s = styleFor(process.stdout);
    const say = (line: string) => values.json || process.stdout.write(line + '\n');
    const warn = (line: string) => (values.json ? process.stderr : process.stdout).write(line + '\n');
    const fail = (code: string, message: string) => {
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, error: { code, message } }) + '\n');
      else process.stderr.write(`skillyard add: ${message}${message.includes(`[${code}]`) ? '' : ` [${code}]`}\n`);
      return 1;
    };
    const lockDir = values.global ? configDir() : process.cwd();
    let lock: Lock;
    try {
      lock = readLock(lockDir) ?? { lockfileVersion: 1, skills: {} };
    } catch (e) {
      if (e instanceof LockError) return fail(e.code, e.message);
      throw e;
    }
    let fetched;
    try {
      fetched = await fetchPackage(ref, { registry: values.registry, keys: values.keys, warn: (line) => process.stderr.write(line + '\n') });
    } catch (e) {
      if (e instanceof FetchError) return fail(e.code, e.message);
      throw e;
    }
    const { label, version, integrity, manifest, deprecated, files } = fetched;
    const key = `@${ref.scope}/${ref.name}`;
    if (agent && manifest?.format !== 'agent-skill') {
      const registry = registryClient({ registry: values.registry }).base;
      return fail(
        'add/not-an-agent-skill',
        `${label} is a ${manifest?.format ?? 'unreadable'} skill, not an Agent Skills folder (SKILL.md), so ${AGENTS[agent].label} cannot load it as a skill; nothing was written. ` +
          `Its tools work over MCP instead: ${mcpRegistrationFor(agent, { name: ref.name, ref: key, registry })}`,
      );
    }
    const locked = lock.skills[key];
    if (locked && locked.version !== version) {
      const change = await permissionChange(registryClient({ registry: values.registry }), ref, locked, { version, manifest });
      if (change.lines.length) {
        warn(`${key} ${locked.version} → ${version} permissions${change.widens ? s.yellow(' (widened)') : ''}:`);
        for (const line of change.lines) warn(`    ${line}`);
      }
      if (change.widens && !values.yes) {
        return fail('add/widens', `${label} may do more than the locked ${locked.version}; nothing was written. Run \`skillyard add ${positionals[0]} --yes\` to accept`);
      }
    }
    if (deprecated) warn(`${s.yellow('deprecated')} ${label}: ${deprecated}`);
    if (fetched.yanked) warn(`${s.yellow('yanked')} ${label} was yanked; it is installed because you named it exactly`);
    const dir = agent ? agentSkillsDir(agent, { global: values.global }) : path.resolve(values.dir ?? 'skills');
    const target = path.join(dir, ref.name);
    const lockedHere = lock.skills[key] && path.resolve(lockDir, lock.skills[key].path) === target;
    if (existsSync(target) && !values.force && !lockedHere) {
      return fail('add/exists', `${path.relative(process.cwd(), target) || target} exists; pass --force to replace it`);
    }
    try {
      await unpackInto(target, files);
    } catch (e) {
      if (e instanceof UnpackError) return fail(e.code, e.message);
      throw e;
    }
    lock.skills[key] = {
      version,
      range: rangeFor(ref.spec, version),
      resolved: fetched.resolved,
      integrity,
      path: lockRelative(lockDir, target),
      agent,
      permissions: permissionsOf(manifest),
    };
    writeLock(lockDir, lock);
    const shown = path.relative(process.cwd(), target) || target;
    const sig = manifest?.signature
      ? manifest.signature.verified
        ? `, signature verified (key ${manifest.signature.keyId})`
        : `, signed by key ${manifest.signature.keyId} (not in your trusted keys)`
      : '';
    if (values.json) {
      process.stdout.write(
        JSON.stringify({
          ok: true,
          skill: key,
          version,
          integrity,
          dir: target,
          agent,
          files: files.length,
          deprecated,
          yanked: fetched.yanked,
          signature: manifest?.signature ?? null,
        }) + '\n',
      );
    } else {
      say(`${s.green('added')} ${label} → ${shown} (${files.length} files${sig})${agent ? ` for ${AGENTS[agent].label}` : ''}`);
      say(s.dim(`  integrity ${integrity}`));
      say(s.dim(`  locked in ${path.relative(process.cwd(), path.join(lockDir, 'skillyard.lock')) || 'skillyard.lock'}`));
      const tool = manifest?.tools[0]?.name;
      if (tool && !agent) say(s.dim(`  try: skillyard run ${tool} --skill ${shown} --args '{}'`));
    }
    return 0;
  },
};
