import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { validate } from './validate';

function capture() {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return () => out;
}

describe('skillyard validate: will it load?', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-validate-'));
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // a name Claude Code and Codex accept but the Agent Skills spec, Cursor and Copilot do not
  const skill = path.join(dir, 'Report_Tool');
  mkdirSync(skill);
  writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: Report_Tool\ndescription: Writes weekly reports\n---\n\nWrite the report.\n');

  it('--json carries per-agent verdicts beside the diagnostics', async () => {
    const out = capture();
    expect(await validate.run([skill, '--json'])).toBe(1);
    const s = JSON.parse(out()).skills[0];
    expect(s.diagnostics.map((d: { code: string }) => d.code)).toContain('skill/name-invalid');
    expect(s.agents.map((a: { agent: string; loads: boolean }) => [a.agent, a.loads])).toEqual([
      ['claude-code', true],
      ['codex', true],
      ['openclaw', true],
      ['cursor', false],
      ['copilot', false],
    ]);
    expect(s.agents[3].reasons[0]).toMatchObject({ rule: 'cursor/name', effect: 'blocks', doc: expect.stringContaining('cursor.com') });
  });

  it('the human output has a "loads in" line and the reason per agent that does not load it', async () => {
    const out = capture();
    await validate.run([skill]);
    expect(out()).toContain('loads in: Claude Code ✓ · Codex ✓ · OpenClaw ✓ · Cursor ✗ · GitHub Copilot ✗');
    expect(out()).toMatch(/Cursor: not loaded: name "Report_Tool" is not lowercase letters, numbers and hyphens \[cursor\/name\]/);
  });

  it('notes (a followed link) are printed and counted but never fail, even under --strict', async () => {
    const root = path.join(dir, 'linked');
    mkdirSync(path.join(root, 'real'), { recursive: true });
    writeFileSync(path.join(root, 'real/SKILL.md'), '---\nname: real\ndescription: d\n---\nBody\n');
    writeFileSync(path.join(root, 'notes.md'), '# notes\n');
    symlinkSync('../notes.md', path.join(root, 'real/notes.md'));
    const out = capture();
    expect(await validate.run([root, '--strict'])).toBe(0);
    expect(out()).toContain('note notes.md is a symbolic link to ../notes.md');
    expect(out()).toMatch(/1 skill, 0 errors, 0 warnings, 1 note/);
  });
});
