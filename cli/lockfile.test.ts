import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS, agentSkillsDir, mcpRegistrationFor } from './agents';
import { entryTarget, LockError, readLock, serializeLock, writeLock, type Lock } from './lockfile';
import { diffPermissions, formatPermissionChanges, type SkillPermissions } from './skill-permissions';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const none: SkillPermissions = { capabilities: [], network: [], tokens: [], subprocess: false };
const entry = (over: Partial<Lock['skills'][string]> = {}) => ({
  version: '1.0.0',
  range: '^1.0.0',
  resolved: 'https://r.example/api/v1/skills/a/b/1.0.0/tarball',
  integrity: 'sha512-AAAA',
  path: '.claude/skills/b',
  agent: 'claude',
  permissions: none,
  ...over,
});

describe('skillyard.lock', () => {
  it('writes sorted, stable bytes and reads them back', () => {
    const lock: Lock = { lockfileVersion: 1, skills: { '@z/y': entry(), '@a/b': entry() } };
    writeLock(dir, lock);
    const text = fs.readFileSync(path.join(dir, 'skillyard.lock'), 'utf8');
    expect(Object.keys(JSON.parse(text).skills)).toEqual(['@a/b', '@z/y']);
    expect(serializeLock(readLock(dir)!)).toBe(text);
  });

  it('refuses a lock it cannot trust instead of treating it as empty', () => {
    fs.writeFileSync(path.join(dir, 'skillyard.lock'), '{"lockfileVersion": 1, "skills": {"@a/b": {"version": "1.0.0"}}}');
    expect(() => readLock(dir)).toThrow(LockError);
    fs.writeFileSync(path.join(dir, 'skillyard.lock'), 'not json');
    expect(() => readLock(dir)).toThrow(/not JSON/);
    expect(readLock(path.join(dir, 'nowhere'))).toBeNull();
  });

  it('never unpacks a locked path outside the lock folder', () => {
    expect(entryTarget(dir, entry({ path: 'skills/b' }))).toBe(path.join(dir, 'skills/b'));
    expect(() => entryTarget(dir, entry({ path: '../../etc' }))).toThrow(LockError);
  });
});

describe('permission changes', () => {
  it('marks an added capability, host, token or subprocess as widening', () => {
    const after: SkillPermissions = { capabilities: ['net'], network: ['api.example.com'], tokens: [], subprocess: true };
    const d = diffPermissions(none, after);
    expect(d.widens).toBe(true);
    expect(formatPermissionChanges(d.changes)).toEqual(['  + capabilities net', '  + network api.example.com', '  + subprocess runs subprocesses']);
    const back = diffPermissions(after, none);
    expect(back.widens).toBe(false);
    expect(formatPermissionChanges(back.changes)).toContain('  - network api.example.com');
    expect(diffPermissions(none, none)).toEqual({ changes: [], widens: false });
  });
});

describe('agent folders', () => {
  it('puts each agent’s skills where it documents them, project and user level', () => {
    expect(agentSkillsDir('claude', { cwd: '/p' })).toBe(path.resolve('/p/.claude/skills'));
    expect(agentSkillsDir('copilot', { global: true, home: '/h' })).toBe(path.join('/h', '.copilot/skills'));
    expect(agentSkillsDir('opencode', { global: true, home: '/h' })).toBe(path.join('/h', '.config/opencode/skills'));
    expect(Object.keys(AGENTS).sort()).toEqual(['claude', 'codex', 'copilot', 'cursor', 'opencode']);
  });
  it('offers an MCP registration that runs the CLI from the registry', () => {
    expect(mcpRegistrationFor('claude', { name: 'x', ref: '@a/x', registry: 'https://r.example' })).toBe(
      'claude mcp add x -- npx -y https://r.example/cli/skillyard.tgz mcp --registry https://r.example --skill @a/x',
    );
  });
});
