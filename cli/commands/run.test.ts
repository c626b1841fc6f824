// `skillyard run` (cli/commands/run.ts) against skills on disk, read by lib/skills.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import cmd, { parseHeldToken } from './run';

function skillFolder(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'run-cli-'));
  const dir = path.join(root, 'count-words');
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: count-words\ndescription: Count words\n---\nCount words.\n');
  writeFileSync(
    path.join(dir, 'tools.json'),
    JSON.stringify([{ name: 'count_words', description: 'Count words', script: 'scripts/count_words.js', parameters: { text: { type: 'string', description: 'text' } } }]),
  );
  writeFileSync(path.join(dir, 'scripts', 'count_words.js'), 'export default async (args) => ({ count: args.text.split(/\\s+/).length });');
  writeFileSync(
    path.join(root, 'greet.skill.md'),
    '---\nname: greet\ndescription: Greets\nmetadata:\n  delegate: "inline://code,export default async function(ctx, { name }) { return `Hello, \\\\${name}!`; }"\n---\nGreet.\n',
  );
  return root;
}

async function runCli(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await cmd.run(argv);
    return { code, out };
  } finally {
    spy.mockRestore();
    errSpy.mockRestore();
  }
}

describe('skillyard run', () => {
  const root = skillFolder();
  it('runs a Skill Tools folder skill and prints {ok, result}', async () => {
    const r = await runCli(['count_words', '--skill', path.join(root, 'count-words'), '--args', '{"text":"a b c"}', '--json']);
    expect(r).toEqual({ code: 0, out: '{"ok":true,"result":{"count":3}}\n' });
  });
  it('runs a .skill.md inline delegate', async () => {
    const r = await runCli(['greet', '--skill', path.join(root, 'greet.skill.md'), '--args', '{"name":"Ada"}', '--json']);
    expect(JSON.parse(r.out)).toEqual({ ok: true, result: 'Hello, Ada!' });
  });
  it('a failing call prints {ok:false, error} and exits 1; usage errors exit 2', async () => {
    const bad = await runCli(['count_words', '--skill', path.join(root, 'count-words'), '--args', '{}', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out).error).toMatchObject({ code: 'params/invalid' });
    expect((await runCli(['count_words', '--args', '{'])).code).toBe(2);
    expect((await runCli(['x', '--skill', path.join(root, 'nope'), '--json'])).code).toBe(2);
  });
  it('a Python handler imports its sibling modules (the whole package, root as cwd)', async () => {
    const dir = path.join(root, 'pdf-words');
    mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: pdf-words\ndescription: Counts words\n---\nCount.\n');
    writeFileSync(
      path.join(dir, 'tools.json'),
      JSON.stringify([{ name: 'count', description: 'Count words', script: 'scripts/count.py', parameters: { text: { type: 'string', description: 't' } } }]),
    );
    writeFileSync(
      path.join(dir, 'scripts', 'count.py'),
      'from textutil import words\n\ndef handler(args):\n    return {"n": len(words(args["text"])), "readme": open("SKILL.md").read().startswith("---")}\n',
    );
    writeFileSync(path.join(dir, 'scripts', 'textutil.py'), 'def words(s):\n    return s.split()\n');
    const r = await runCli(['count', '--skill', dir, '--args', '{"text":"a b c d"}', '--json', '--allow-subprocess']);
    expect(JSON.parse(r.out)).toEqual({ ok: true, result: { n: 4, readme: true } });
  });
});

describe('skillyard run --token', () => {
  it('parses ISSUER[:CLAIM,...]=SECRET, with env:NAME and "account" by default', () => {
    expect(parseHeldToken('@oauth/github=gho_x')).toMatchObject({ issuer: '@oauth/github', claims: ['account'], secret: 'gho_x', expiresAt: null });
    expect(parseHeldToken('@oauth/oidc:account,api:read=s=with=equals')).toMatchObject({ issuer: '@oauth/oidc', claims: ['account', 'api:read'], secret: 's=with=equals' });
    expect(parseHeldToken('@oauth/github=env:GH', 0, { GH: 'from-env' }).secret).toBe('from-env');
    expect(() => parseHeldToken('@oauth/github=env:MISSING', 0, {})).toThrow(/not set/);
    expect(() => parseHeldToken('github=x')).toThrow(/ISSUER/);
  });

  it('unlocks a token-gated tool for this run only', async () => {
    const argv = ['api-whoami', '--skill', path.resolve('skills/connected-api'), '--args', '{"base_url":"http://127.0.0.1:9/upstream"}', '--json'];
    const locked = await runCli(argv);
    expect(locked.code).toBe(1);
    expect(JSON.parse(locked.out).error.code).toBe('token/missing');
    // held: the tool runs and gets as far as the network (loopback is refused without SKILLYARD_NET_ALLOW)
    const held = await runCli([...argv, '--token', '@oauth/oidc:account,api:read=secret-for-test']);
    expect(JSON.parse(held.out).error?.code).not.toBe('token/missing');
    expect(JSON.parse(held.out).error?.code).toMatch(/^net\//);
  });
});
