// skillyard login / whoami / logout against the real /api/auth routes (served by a plain
// HTTP server here) and the real database: the device code is confirmed as a signed-in
// user would, the token lands in the config file with mode 0600, whoami names the user,
// logout revokes it at the registry.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDb, testDatabaseUrl } from '../../test/db';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let server: http.Server;
let base: string;
let home: string;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-home-'));
  process.env.SKILLYARD_HOME = path.join(home, 'cfg');
  delete process.env.SKILLYARD_TOKEN;
  const routes: Record<string, Handler> = {
    'POST /api/auth/device': (await import('../../app/api/auth/device/route')).POST as Handler,
    'POST /api/auth/device/token': (await import('../../app/api/auth/device/token/route')).POST as Handler,
    'GET /api/auth/whoami': (await import('../../app/api/auth/whoami/route')).GET as Handler,
    'POST /api/auth/cli-logout': (await import('../../app/api/auth/cli-logout/route')).POST as Handler,
  };
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = `${base}${req.url}`;
    const handler = routes[`${req.method} ${new URL(url).pathname}`];
    if (!handler) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out = await handler(request, { params: Promise.resolve({}) });
    res.statusCode = out.status;
    out.headers.forEach((v, k) => res.setHeader(k, v));
    res.end(Buffer.from(await out.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  return { out, err, restore: () => (o.mockRestore(), e.mockRestore()) };
}

describe('skillyard login, whoami, logout', () => {
  it('signs the CLI in by device code, stores the token 0600, names the user, and revokes on logout', async () => {
    const db = testDb();
    const handle = `cli-${Date.now().toString(36)}`;
    const user = await db.user.create({ data: { handle, name: 'CLI user' } });
    const { login } = await import('./login');
    const { whoami } = await import('./whoami');
    const { logout } = await import('./logout');

    const io = capture();
    const running = login.run(['--registry', base, '--no-browser']);
    // the person reads the code in the terminal and confirms it in the browser
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      code = /confirm the code .*?([B-Z]{4}-[B-Z]{4})/.exec(io.err.join(''))?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 50));
    }
    expect(code).toBeTruthy();
    const { approveDeviceLogin } = await import('../../lib/auth/device-login');
    await expect(approveDeviceLogin(db, user.id, 'BBBB-BBBB', ['invoke'])).rejects.toMatchObject({ code: 'auth/device-code-not-found' });
    await approveDeviceLogin(db, user.id, code!.toLowerCase(), ['invoke', 'runs']);
    await expect(approveDeviceLogin(db, user.id, code!, ['invoke'])).rejects.toMatchObject({ code: 'auth/device-code-used' });
    const exit = await running;
    io.restore();
    expect(io.err.join('')).toContain(`Signed in as @${handle}`);
    expect(exit).toBe(0);

    const file = path.join(process.env.SKILLYARD_HOME!, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ registry: base, token: expect.stringMatching(/^sy_/) });
    // the minted token is no longer stored anywhere but in its hash
    expect(await db.deviceLogin.count({ where: { userId: user.id } })).toBe(0);

    const who = capture();
    expect(await whoami.run(['--json'])).toBe(0);
    who.restore();
    expect(JSON.parse(who.out.join(''))).toMatchObject({ handle, token: { scopes: ['invoke', 'runs'] }, registry: base });

    // SKILLYARD_TOKEN overrides the saved one
    process.env.SKILLYARD_TOKEN = 'sy_00000000_notarealtokennotarealtoken';
    const bad = capture();
    expect(await whoami.run([])).toBe(1);
    bad.restore();
    expect(bad.err.join('')).toContain('auth/unauthenticated');
    delete process.env.SKILLYARD_TOKEN;

    const out = capture();
    expect(await logout.run([])).toBe(0);
    out.restore();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).token).toBeUndefined();
    expect(await db.apiToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    const after = capture();
    expect(await whoami.run([])).toBe(1);
    after.restore();
  });

  it('an unknown device code is refused with a clear error', async () => {
    const res = await fetch(`${base}/api/auth/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceCode: 'x'.repeat(43) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'auth/device-code-expired' } });
    const bad = await fetch(`${base}/api/auth/device/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"deviceCode": 5}' });
    expect(bad.status).toBe(400);
  });
});
