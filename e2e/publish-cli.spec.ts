// The CLI against the running server: publish a skill folder, refuse the same number
// again, install it with `skillyard add` into an empty folder, run one of its tools.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createPublisher } from './publish-fixtures';

const ROOT = process.cwd();
// npm scripts run on Node 24 from node_modules (isolated-vm has no build for the system Node)
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/.bin/node')) ? path.join(ROOT, 'node_modules/.bin/node') : process.execPath;

function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(NODE, [path.join(ROOT, 'bin/skillyard.mjs'), ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('publish with the CLI, add into an empty folder, run a tool', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const handle = `cli-${crypto.randomBytes(3).toString('hex')}`;
  const { token } = await createPublisher(handle);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-cli-'));
  const home = path.join(work, 'home');
  const env = { SKILLYARD_TOKEN: token, SKILLYARD_REGISTRY: baseURL!, SKILLYARD_HOME: home };
  try {
    // a copy of the bundled text-stats skill under a name of its own
    const src = path.join(work, 'src', 'word-counter');
    fs.cpSync(path.join(ROOT, 'skills/text-stats'), src, { recursive: true });
    const skillMd = path.join(src, 'SKILL.md');
    fs.writeFileSync(skillMd, fs.readFileSync(skillMd, 'utf8').replace(/^name: text-stats$/m, 'name: word-counter'));

    const dry = cli(['publish', src, '--dry-run'], { env });
    expect(dry.code, dry.out + dry.err).toBe(0);
    expect(dry.out).toContain(`@${handle}/word-counter@1.0.0 can be published`);

    const first = cli(['publish', src], { env });
    expect(first.code, first.out + first.err).toBe(0);
    expect(first.out).toContain(`published @${handle}/word-counter@1.0.0 (latest)`);
    expect(first.out).toContain(`${baseURL}/skills/${handle}/word-counter`);

    const again = cli(['publish', src], { env });
    expect(again.code).toBe(1);
    expect(again.err).toContain('publish/version-exists');

    // someone else's scope is refused
    const other = cli(['publish', src, '--scope', '@skillyard', '--version', '9.9.9'], { env });
    expect(other.code).toBe(1);
    expect(other.err).toContain('publish/forbidden');

    // installs without a token, into an empty folder
    const project = path.join(work, 'project');
    fs.mkdirSync(project);
    const add = cli(['add', `@${handle}/word-counter@^1.0.0`], { cwd: project, env: { SKILLYARD_REGISTRY: baseURL!, SKILLYARD_HOME: home, SKILLYARD_TOKEN: '' } });
    expect(add.code, add.out + add.err).toBe(0);
    expect(add.out).toContain(`added @${handle}/word-counter@1.0.0`);
    expect(fs.existsSync(path.join(project, 'skills/word-counter/SKILL.md'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'skills/word-counter/scripts/count_words.js'))).toBe(true);

    const run = cli(['run', 'count-words', '--skill', 'skills/word-counter', '--args', '{"text":"one two three"}', '--json'], { cwd: project, env });
    expect(run.code, run.out + run.err).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ ok: true, result: { words: 3 } });

    const search = cli(['search', 'word', 'countr', '--json'], { env });
    expect(search.code).toBe(0);
    expect(JSON.parse(search.out).hits.map((h: { name: string }) => h.name)).toContain('word-counter');

    const info = cli(['info', `@${handle}/word-counter`], { env });
    expect(info.code).toBe(0);
    expect(info.out).toContain(`install: skillyard add @${handle}/word-counter`);
    expect(info.out).toContain('1 downloads');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  void execFileSync;
});

test('REST: tarball integrity, yank and deprecate, errors', async ({ request }) => {
  const handle = `api-${crypto.randomBytes(3).toString('hex')}`;
  const { token } = await createPublisher(handle);
  const auth = { authorization: `Bearer ${token}` };
  const md = (v: string) => `---\nname: hello-api\ndescription: Says hello over the API.\nmetadata:\n  version: ${v}\n---\n\nSay hello.\n`;
  const publish = (v: string) =>
    request.post(`/api/v1/skills?filename=hello-api.skill.md`, { headers: { ...auth, 'content-type': 'application/octet-stream' }, data: Buffer.from(md(v)) });

  const anonymous = await request.post('/api/v1/skills', { data: Buffer.from(md('1.0.0')) });
  expect(anonymous.status()).toBe(401);

  const res = await publish('1.0.0');
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  expect(body.integrity).toMatch(/^sha512-/);
  expect((await publish('1.0.0')).status()).toBe(409);
  expect((await publish('1.1.0')).status()).toBe(201);

  const tgz = await request.get(`/api/v1/skills/${handle}/hello-api/1.0.0/tarball`);
  expect(tgz.status()).toBe(200);
  const bytes = await tgz.body();
  expect(tgz.headers()['x-skillyard-integrity']).toBe(`sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`);

  const yank = await request.post(`/api/v1/skills/${handle}/hello-api/1.1.0/yank`, { headers: auth, data: { reason: 'oops' } });
  expect(yank.status()).toBe(200);
  expect((await yank.json()).latest).toBe('1.0.0');
  expect((await (await request.get(`/api/v1/skills/${handle}/hello-api/^1`)).json()).version).toBe('1.0.0');
  expect((await request.get(`/api/v1/skills/${handle}/hello-api/1.1.0/tarball`)).headers()['x-skillyard-yanked']).toBe('1');
  const versions = await (await request.get(`/api/v1/skills/${handle}/hello-api/versions`)).json();
  expect(versions.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);

  const dep = await request.post(`/api/v1/skills/${handle}/hello-api/deprecate`, { headers: auth, data: { range: '1.0.0', message: 'use 2.x' } });
  expect(dep.status()).toBe(200);
  expect(decodeURIComponent((await request.get(`/api/v1/skills/${handle}/hello-api/1.0.0/tarball`)).headers()['x-skillyard-deprecated'])).toBe('use 2.x');

  const bomb = await request.post('/api/v1/skills', { headers: { ...auth, 'content-type': 'application/gzip' }, data: Buffer.alloc(51 * 1024 * 1024) });
  expect(bomb.status()).toBe(413);
  expect((await bomb.json()).error.message).toContain('maxPackageBytes');

  const secret = await request.post(`/api/v1/skills?filename=leak.skill.md`, {
    headers: auth,
    data: Buffer.from(`---\nname: leak\ndescription: Leaks.\nmetadata:\n  version: 1.0.0\n---\n\nkey AKIAABCDEFGHIJKLMNOP\n`),
  });
  expect(secret.status()).toBe(422);
  const err = (await secret.json()).error;
  expect(err.code).toBe('publish/blocked-by-scan');
  expect(err.message).toMatch(/leak\.skill\.md:\d+/);
  expect(err.message).not.toContain('AKIAABCDEFGHIJKLMNOP');
});
