// The CLI as a new user meets it (issue 26): a temporary folder outside the repository,
// an empty HOME, no node_modules above it, a real production server (`scripts/start.mjs`,
// the `npm start` path), and the CLI installed from the server's own tarball URL with npx.
// Then: publish two versions, `add --agent claude`, `install --frozen` from the lock in a
// second empty folder (the same bytes), a tampered lock refused, `update` showing the
// permission diff (held back without --yes; the same diff on the page and in the API),
// `verify` of the signed statement (a changed byte, another key, rotation, revocation),
// the skill page's install line run as it is,
// and the skill page's Claude Desktop snippet driven by the MCP SDK client. Once on the
// project's Node and once on Node 20 (the `node@20` npm package, as .ci/run does for 26).
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchApp, type BenchApp } from '../bench/bench-app';

const ROOT = path.join(__dirname, '..');
const APP_PORT = process.env.SKILLYARD_CLI_INT_PORT ?? process.env.E2E_PORT ?? '3190';
const PG_PORT = Number(process.env.SKILLYARD_SCRATCH_PG_PORT ?? 54390);
const origin = `http://127.0.0.1:${APP_PORT}`;

/**
 * A GET that tries once more when the kept-alive connection it reused was closed by the
 * server as the request left (the server ends idle connections after a few seconds, and
 * the CLI steps between two fetches take longer than that).
 */
async function get(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url);
  }
}

let app: BenchApp;
let token: string;
let handle: string;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-cli-pkg-'));

async function createPublisher(databaseUrl: string): Promise<{ handle: string; token: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const h = `cli${crypto.randomBytes(3).toString('hex')}`;
    const userId = `int_${crypto.randomBytes(8).toString('hex')}`;
    await client.query(`INSERT INTO "User" (id, handle, name, "updatedAt") VALUES ($1, $2, $2, now())`, [userId, h]);
    await client.query(`INSERT INTO "Scope" (name, kind, "userId") VALUES ($1, 'user', $2)`, [h, userId]);
    const prefix = crypto.randomBytes(4).toString('hex');
    const t = `sy_${prefix}_${crypto.randomBytes(24).toString('base64url')}`;
    await client.query(`INSERT INTO "ApiToken" (id, "userId", name, prefix, hash, scopes) VALUES ($1, $2, 'int', $3, $4, $5)`, [
      `tok_${prefix}`,
      userId,
      prefix,
      crypto.createHash('sha256').update(t).digest('hex'),
      ['publish', 'invoke'],
    ]);
    return { handle: h, token: t };
  } finally {
    await client.end();
  }
}

/** A skill folder: text-stats renamed; `net` adds a host and the net capability (a wider permission). */
function writeSkill(dir: string, name: string, version: string, net: boolean): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'skills/text-stats'), dir, { recursive: true });
  const md = path.join(dir, 'SKILL.md');
  let text = fs
    .readFileSync(md, 'utf8')
    .replace(/^name: text-stats$/m, `name: ${name}`)
    .replace(/^  version: 1\.0\.0$/m, `  version: ${version}`);
  if (net) text = text.replace(/^metadata:$/m, 'metadata:\n  allowed-hosts: api.example.com');
  fs.writeFileSync(md, text);
  if (net) {
    const tools = JSON.parse(fs.readFileSync(path.join(dir, 'tools.json'), 'utf8')) as Array<Record<string, unknown>>;
    tools[0].capabilities = ['net'];
    fs.writeFileSync(path.join(dir, 'tools.json'), JSON.stringify(tools, null, 2));
  }
}

/** Every file under `dir`, path → sha256, to compare two installs byte for byte. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** The text of the element with `data-testid` in server-rendered HTML (entities decoded). */
function testIdText(html: string, id: string): string {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(?:code|pre)>`).exec(html);
  if (!m) throw new Error(`no ${id} on the page`);
  return m[1]
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

beforeAll(async () => {
  app = await startBenchApp({
    name: 'clipkg',
    pgPort: PG_PORT,
    appPort: APP_PORT,
    env: { SKILLYARD_CLI_PACKAGE: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
    settleMs: 1000,
    startTimeoutMs: 1_700_000,
  });
  ({ handle, token } = await createPublisher(app.url));
}, 1_800_000);

afterAll(async () => {
  await app?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs the npm client (on `node`) in `cwd` with nothing of this repository around: empty HOME, its own npm cache. */
function newUser(label: string, node: string) {
  const base = path.join(work, label);
  const home = path.join(base, 'home');
  const bin = path.join(base, 'bin');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(bin, { recursive: true });
  // the chosen Node first on PATH: npx (#!/usr/bin/env node) and the CLI it starts run on it
  fs.symlinkSync(node, path.join(bin, 'node'));
  const npmDir = path.dirname(fs.realpathSync(execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim()));
  const env: Record<string, string> = {
    HOME: home,
    PATH: [bin, path.dirname(execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim()), npmDir, '/usr/bin', '/bin'].join(path.delimiter),
    npm_config_cache: path.join(base, 'npm-cache'),
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
    // this machine reaches registry.npmjs.org through a TLS proxy whose CA it names here;
    // without it every npx waits minutes on the registry (a machine setting, not a user file)
    ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
  };
  const folder = (name: string) => {
    const d = path.join(base, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const run = (cwd: string, command: string, args: string[], extra: Record<string, string> = {}) => {
    const r = spawnSync(command, args, { cwd, env: { ...env, ...extra } as unknown as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 300_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const cli = (cwd: string, args: string[], extra: Record<string, string> = {}) => run(cwd, 'npx', ['-y', `${origin}/cli/skillyard.tgz`, ...args], extra);
  return { base, env, folder, run, cli };
}

function nodeBinaries(): Array<[string, string]> {
  const node20 = execFileSync('npx', ['--yes', 'node@20', '-p', 'process.execPath'], { encoding: 'utf8', cwd: os.tmpdir(), timeout: 300_000 }).trim();
  return [
    [`the project's Node (${process.version})`, process.execPath],
    [`Node ${execFileSync(node20, ['--version'], { encoding: 'utf8' }).trim()}`, node20],
  ];
}

describe.each(nodeBinaries())('the CLI from the registry tarball on %s', (label, node) => {
  const user = newUser(label.replace(/[^a-z0-9]+/gi, '-'), node);
  const skill = `wc-${crypto.randomBytes(3).toString('hex')}`;

  it('installs from the tarball URL in an empty folder and reports its version', () => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v\d+/);
    const r = user.cli(user.folder('first'), ['--version']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toMatch(/^skillyard \d+\.\d+\.\d+$/);
    // no repository, no node_modules above the folder
    expect(fs.existsSync(path.join(user.base, 'node_modules'))).toBe(false);
    expect(path.relative(ROOT, user.base).startsWith('..')).toBe(true);
  }, 300_000);

  it('publishes, adds for Claude, installs --frozen elsewhere, refuses a tampered lock, and updates with a permission diff', () => {
    const src = path.join(user.base, 'src', skill);
    writeSkill(src, skill, '1.0.0', false);
    const publish = user.cli(user.folder('author'), ['publish', src, '--registry', origin], { SKILLYARD_TOKEN: token });
    expect(publish.code, publish.out + publish.err).toBe(0);
    expect(publish.out).toContain(`@${handle}/${skill}@1.0.0`);

    const project = user.folder('project');
    const add = user.cli(project, ['add', `@${handle}/${skill}`, '--agent', 'claude', '--registry', origin]);
    expect(add.code, add.out + add.err).toBe(0);
    const installed = path.join(project, '.claude/skills', skill);
    expect(fs.readFileSync(path.join(installed, 'SKILL.md'), 'utf8')).toContain(`name: ${skill}`);
    const lockText = fs.readFileSync(path.join(project, 'skillyard.lock'), 'utf8');
    const entry = JSON.parse(lockText).skills[`@${handle}/${skill}`];
    expect(entry).toMatchObject({
      version: '1.0.0',
      range: '^1.0.0',
      resolved: `${origin}/api/v1/skills/${handle}/${skill}/1.0.0/tarball`,
      path: `.claude/skills/${skill}`,
      agent: 'claude',
      permissions: { capabilities: [], network: [], tokens: [], subprocess: false },
    });
    expect(entry.integrity).toMatch(/^sha512-/);

    // a second empty folder with only the lock: the same bytes, and the lock unchanged
    const ci = user.folder('ci');
    fs.writeFileSync(path.join(ci, 'skillyard.lock'), lockText);
    const frozen = user.cli(ci, ['install', '--frozen']);
    expect(frozen.code, frozen.out + frozen.err).toBe(0);
    expect(tree(path.join(ci, '.claude/skills', skill))).toEqual(tree(installed));
    expect(fs.readFileSync(path.join(ci, 'skillyard.lock'), 'utf8')).toBe(lockText);

    // a lock whose integrity does not match the bytes: refused, nothing written
    const tampered = user.folder('tampered');
    fs.writeFileSync(path.join(tampered, 'skillyard.lock'), lockText.replace(entry.integrity, `sha512-${crypto.createHash('sha512').update('other').digest('base64')}`));
    const bad = user.cli(tampered, ['install']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('install/integrity-mismatch');
    expect(fs.existsSync(path.join(tampered, '.claude'))).toBe(false);

    // 1.1.0 asks for the net capability and a host: update prints it and holds it back
    writeSkill(src, skill, '1.1.0', true);
    const second = user.cli(user.folder('author'), ['publish', src, '--registry', origin], { SKILLYARD_TOKEN: token });
    expect(second.code, second.out + second.err).toBe(0);
    const outdated = user.cli(project, ['outdated']);
    expect(outdated.code).toBe(1);
    expect(outdated.out).toMatch(new RegExp(`@${handle}/${skill}\\s+1\\.0\\.0\\s+1\\.1\\.0\\s+1\\.1\\.0`));
    const held = user.cli(project, ['update']);
    expect(held.code, held.out + held.err).toBe(1);
    expect(held.out).toContain(`@${handle}/${skill} 1.0.0 → 1.1.0`);
    // the registry's diff in plain words (docs/trust.md), the same on the page and in the API
    expect(held.out).toContain('+ network access to api.example.com');
    expect(held.out).toContain('held back');
    expect(fs.readFileSync(path.join(project, 'skillyard.lock'), 'utf8')).toBe(lockText);
    const yes = user.cli(project, ['update', '--yes']);
    expect(yes.code, yes.out + yes.err).toBe(0);
    const updated = JSON.parse(fs.readFileSync(path.join(project, 'skillyard.lock'), 'utf8')).skills[`@${handle}/${skill}`];
    expect(updated).toMatchObject({ version: '1.1.0', permissions: { capabilities: ['net'], network: ['api.example.com'] } });
    expect(fs.readFileSync(path.join(installed, 'SKILL.md'), 'utf8')).toContain('allowed-hosts: api.example.com');
  }, 600_000);

  it('shows the 1.1.0 permission diff on the page and in the API', async () => {
    const html = await (await get(`${origin}/skills/${handle}/${skill}`)).text();
    const text = html.replace(/<!-- -->/g, '');
    expect(text).toContain('data-testid="permission-diff-lines"');
    expect(text).toContain('1.1.0 adds network access to api.example.com');
    const api = (await (await get(`${origin}/api/v1/skills/${handle}/${skill}/1.1.0/permissions?from=1.0.0`)).json()) as { diff: { widens: boolean; sentences: string[] } };
    expect(api.diff).toMatchObject({ widens: true, sentences: ['1.1.0 adds network access to api.example.com'] });
  });

  it('verifies a statement; fails after one changed byte, with another key, and after its key is revoked (not merely rotated)', async () => {
    const ref = `@${handle}/${skill}@1.1.0`;
    const here = user.folder('verify');
    const ok = user.cli(here, ['verify', ref, '--registry', origin]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toContain(`verified ${ref}`);
    expect(ok.out).toContain('network access to api.example.com');

    const tgz = new Uint8Array(await (await get(`${origin}/api/v1/skills/${handle}/${skill}/1.1.0/tarball`)).arrayBuffer());
    tgz[tgz.length - 5] ^= 1;
    fs.writeFileSync(path.join(here, 'changed.tgz'), tgz);
    const changed = user.cli(here, ['verify', ref, '--registry', origin, '--tarball', 'changed.tgz']);
    expect(changed.code).toBe(1);
    expect(changed.err).toContain('statement/digest-mismatch');

    const statement = (await (await get(`${origin}/api/v1/skills/${handle}/${skill}/1.1.0/statement`)).json()) as { keyId: string };
    fs.writeFileSync(path.join(here, 'statement.json'), JSON.stringify(statement));
    const keys = (await (await get(`${origin}/.well-known/skillyard-keys.json`)).json()) as { keys: Array<{ kid: string; x: string }> };
    const otherX = (crypto.generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as { x: string }).x;
    fs.writeFileSync(path.join(here, 'other-keys.json'), JSON.stringify({ keys: keys.keys.map((k) => (k.kid === statement.keyId ? { ...k, x: otherX } : k)) }));
    const other = user.cli(here, ['verify', ref, '--registry', origin, '--keys', 'other-keys.json']);
    expect(other.code).toBe(1);
    expect(other.err).toContain('statement/bad-signature');

    // offline: the key set kept by the first run, the statement and tarball as files
    const good = new Uint8Array(await (await get(`${origin}/api/v1/skills/${handle}/${skill}/1.1.0/tarball`)).arrayBuffer());
    fs.writeFileSync(path.join(here, 'good.tgz'), good);
    const offline = user.cli(here, [
      'verify',
      ref,
      '--registry',
      'http://127.0.0.1:9',
      '--offline',
      '--statement',
      'statement.json',
      '--tarball',
      'good.tgz',
      '--keys',
      path.join(user.base, 'home/.skillyard/trust', `127.0.0.1_${APP_PORT}.json`),
    ]);
    expect(offline.code, offline.out + offline.err).toBe(0);

    // rotation: the key is retired (a new one signs); the old statement still verifies
    const db = new pg.Client({ connectionString: app.url });
    await db.connect();
    try {
      await db.query(`UPDATE "SigningKey" SET "retiredAt" = now() WHERE id = $1`, [statement.keyId]);
      const rotated = user.cli(here, ['verify', ref, '--registry', origin, '--statement', 'statement.json']);
      expect(rotated.code, rotated.out + rotated.err).toBe(0);
      expect(rotated.out).toContain('(retired)');
      // revocation: the old statement fails; the registry signs the version again with the new key
      await db.query(`UPDATE "SigningKey" SET "revokedAt" = now(), "revokeReason" = 'int test' WHERE id = $1`, [statement.keyId]);
      const revoked = user.cli(here, ['verify', ref, '--registry', origin, '--statement', 'statement.json']);
      expect(revoked.code).toBe(1);
      expect(revoked.err).toContain('statement/key-revoked');
      const resigned = user.cli(here, ['verify', ref, '--registry', origin]);
      expect(resigned.code, resigned.out + resigned.err).toBe(0);
      expect(resigned.out).not.toContain(statement.keyId);
    } finally {
      await db.end();
    }
  }, 300_000);

  it("runs the skill page's install line and Claude Desktop snippet as they are", async () => {
    const html = await (await get(`${origin}/skills/${handle}/${skill}`)).text();
    const line = testIdText(html, 'install-command');
    expect(line).toBe(`npx -y ${origin}/cli/skillyard.tgz add @${handle}/${skill} --registry ${origin}`);
    const [cmd, ...args] = line.split(' ');
    const here = user.folder('page-install');
    const r = user.run(here, cmd, args);
    expect(r.code, r.out + r.err).toBe(0);
    expect(fs.existsSync(path.join(here, 'skills', skill, 'SKILL.md'))).toBe(true);

    const config = JSON.parse(testIdText(html, 'mcp-stdio-json-text')).mcpServers[skill] as { command: string; args: string[] };
    expect(config.command).toBe('npx');
    const client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: config.command, args: config.args, env: user.env, cwd: user.folder('desktop'), stderr: 'pipe' }));
    try {
      expect(client.getServerVersion()?.name).toBe('skillyard');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('count-words');
      const res = await client.callTool({ name: 'count-words', arguments: { text: 'one two three' } });
      expect(res.isError, JSON.stringify(res)).toBeFalsy();
      expect(res.structuredContent ?? JSON.parse((res.content as Array<{ text: string }>)[0].text)).toMatchObject({ words: 3 });
    } finally {
      await client.close();
    }
  }, 300_000);
});
