import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from './main';

const ROOT = path.join(__dirname, '..');

function capture() {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  return { out: () => out, err: () => err };
}

describe('skillyard CLI', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-cli-'));
  const home = path.join(dir, 'home');
  beforeEach(() => {
    process.env.SKILLYARD_HOME = home;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validate --json prints {ok, skills} and exits 0 for valid skills', async () => {
    const io = capture();
    const code = await main(['validate', path.join(ROOT, 'skills/slugify'), '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(io.out());
    expect(json.ok).toBe(true);
    expect(json.diagnostics).toBeUndefined();
    expect(json.skills[0]).toMatchObject({ name: 'slugify', format: 'skill-md', tools: [{ name: 'slugify', handler: { kind: 'inline-code' } }] });
  });

  it('exits 1 with file:line diagnostics for an invalid skill, 2 for usage errors', async () => {
    const bad = path.join(dir, 'bad-skill');
    mkdirSync(bad);
    writeFileSync(path.join(bad, 'SKILL.md'), '---\nname: other\ndescription: x\n---\nBody\n');
    let io = capture();
    expect(await main(['validate', bad])).toBe(1);
    expect(io.out()).toContain(`${path.join(bad, 'SKILL.md')}:2: error name "other" must match the folder name "bad-skill" [skill/name-dir-mismatch]`);
    expect(io.out()).not.toContain('\x1b['); // not a TTY: no colours
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate'])).toBe(2);
    expect(io.err()).toContain('Usage: skillyard validate');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', '--nope', 'x'])).toBe(2);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['frobnicate'])).toBe(2);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', path.join(dir, 'missing'), '--json'])).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({ ok: false, skills: [], diagnostics: [{ code: 'path/not-found' }] });
  });

  it('--strict fails a skill with only warnings and marks it ✗; Windows line endings give plain instructions', async () => {
    const warned = path.join(dir, 'warned');
    mkdirSync(warned);
    writeFileSync(path.join(warned, 'SKILL.md'), '---\r\nname: warned\r\ndescription: x\r\ngroup: Craft\r\n---\r\nLine one.\r\nLine two.\r\n');
    let io = capture();
    expect(await main(['validate', warned])).toBe(0);
    expect(io.out()).toMatch(/^! warned/m);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', warned, '--strict'])).toBe(1);
    expect(io.out()).toMatch(/^✗ warned/m);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', warned, '--json'])).toBe(0);
    expect(JSON.parse(io.out()).skills[0].instructions).toBe('Line one.\nLine two.\n');
  });

  it('keygen + sign + validate --keys verifies the signature', async () => {
    const keys = path.join(dir, 'keys');
    let io = capture();
    expect(await main(['keygen', '--out', keys])).toBe(0);
    const priv = readdirSync(keys).find((f) => f.endsWith('.key.pem'))!;
    const keyId = priv.slice(0, 16);
    expect(io.out()).toContain(`key id   ${keyId}`);
    const pkg = path.join(dir, 'signed/.ai/tools/util');
    mkdirSync(pkg, { recursive: true });
    const file = path.join(pkg, 'hello.yaml');
    writeFileSync(file, 'tool_id: hello\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: util\ndescription: Hello\n');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['sign', file, '--key', path.join(keys, priv)])).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^# rye:signed:[^\\n]*:${keyId}\\n`));
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', path.join(dir, 'signed'), '--json', '--keys', keys])).toBe(0);
    expect(JSON.parse(io.out()).skills[0].signature).toMatchObject({ verified: true, keyId });
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['validate', path.join(dir, 'signed'), '--json'])).toBe(0);
    expect(JSON.parse(io.out()).skills[0].signature).toMatchObject({ verified: null, reason: `unknown key ${keyId}` });
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['sign', file])).toBe(2);
  });

  it('sign with a missing key file or file to sign fails in one line, exit 1, no stack', async () => {
    const file = path.join(dir, 'to-sign.py');
    writeFileSync(file, '__version__ = "1.0.0"\n');
    let io = capture();
    expect(await main(['sign', file, '--key', path.join(dir, 'keys-nowhere/private.pem')])).toBe(1);
    expect(io.err()).toBe(
      `skillyard sign: signing key (--key) ${path.join(dir, 'keys-nowhere/private.pem')} does not exist (\`skillyard keygen --out <dir>\` writes <dir>/<keyid>.key.pem and prints its path)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('__version__ = "1.0.0"\n');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['sign', file, '--key', dir])).toBe(1);
    expect(io.err()).toBe(`skillyard sign: cannot read signing key (--key) ${dir}: it is a folder\n`);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['keygen', '--out', path.join(dir, 'keys2')])).toBe(0);
    const priv = io.out().match(/^private +(.+)$/m)![1]!;
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['sign', path.join(dir, 'missing.py'), '--key', priv])).toBe(1);
    expect(io.err()).toBe(`skillyard sign: file to sign ${path.join(dir, 'missing.py')} does not exist\n`);
  });

  it('--help lists the commands; each command has its own help', async () => {
    const io = capture();
    expect(await main(['--help'])).toBe(0);
    for (const c of ['validate', 'sign', 'keygen']) expect(io.out()).toContain(`  ${c}`);
    expect(await main(['sign', '--help'])).toBe(0);
    expect(io.out()).toContain('Usage: skillyard sign');
  });

  it('bin/skillyard.mjs runs the compiled CLI (dist/cli), building it when stale', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/skillyard.mjs'), 'validate', path.join(ROOT, 'skills/json-query'), '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ ok: true, skills: [{ name: 'json-query', source: path.join(ROOT, 'skills/json-query/json-query.skill.ts') }] });
    expect(existsSync(path.join(ROOT, 'dist/cli/main.js'))).toBe(true);
    const help = execFileSync(process.execPath, [path.join(ROOT, 'bin/skillyard.mjs'), '--help'], { encoding: 'utf8' });
    expect(help).toContain('skillyard <command>');
  });

  it('a reader that closes the pipe early (validate --json | head) ends the CLI quietly, with no stack', () => {
    const script = `node ${JSON.stringify(path.join(ROOT, 'bin/skillyard.mjs'))} validate ${JSON.stringify(path.join(ROOT, 'skills'))} --json | head -c 100 > /dev/null; echo "status=\${PIPESTATUS[0]}"`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.stdout.trim()).toBe('status=0');
  });

  it("bin's list of isolate commands is the registry's", async () => {
    const { ISOLATE_COMMANDS } = await import('./commands/index');
    const bin = readFileSync(path.join(ROOT, 'bin/skillyard.mjs'), 'utf8');
    expect(JSON.parse(/const ISOLATE_COMMANDS = (\[[^\]]*\])/.exec(bin)![1].replace(/'/g, '"'))).toEqual(ISOLATE_COMMANDS);
  });

  it('validate --json streams a well-formed document for a tree, with top-level diagnostics last', async () => {
    const tree = path.join(dir, 'tree');
    for (let i = 0; i < 30; i++) {
      mkdirSync(path.join(tree, `s${i}`), { recursive: true });
      writeFileSync(path.join(tree, `s${i}`, 'SKILL.md'), `---\nname: s${i}\ndescription: Skill ${i}\n---\nBody\n`);
    }
    mkdirSync(path.join(tree, 'deep/a/b'), { recursive: true });
    writeFileSync(path.join(tree, 'deep/a/b/x.skill.md'), '---\nname: x\ndescription: y\n---\nBody\n');
    const io = capture();
    expect(await main(['validate', tree, path.join(dir, 'missing'), '--json'])).toBe(1);
    const json = JSON.parse(io.out());
    expect(json.skills).toHaveLength(31);
    expect(json.skills.find((s: { name: string }) => s.name === 's0')).toMatchObject({ source: path.join(tree, 's0'), diagnostics: [] });
    expect(json.skills.find((s: { name: string }) => s.name === 'x')).toMatchObject({ source: path.join(tree, 'deep/a/b/x.skill.md') });
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(['path/not-found']);
    expect(json.ok).toBe(false);
    vi.restoreAllMocks();
    const empty = capture();
    expect(await main(['validate', path.join(dir, 'missing'), '--json'])).toBe(1);
    expect(JSON.parse(empty.out())).toEqual({ skills: [], diagnostics: [expect.objectContaining({ code: 'path/not-found' })], ok: false });
  });
});

describe('command registry', () => {
  it('each entry loads its command, with the same name and summary', async () => {
    const { commands } = await import('./commands/index');
    for (const entry of commands) {
      const cmd = await entry.load();
      expect(cmd.name).toBe(entry.name);
      expect(cmd.summary).toBe(entry.summary);
      expect(cmd.usage).toContain(`skillyard ${entry.name}`);
    }
  });
});
