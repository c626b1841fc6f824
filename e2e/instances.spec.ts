// Issue 27, many instances on one Postgres: two web instances of the built app (A with a
// run worker, B with SKILLYARD_WORKER=0) and one `npm run worker`, all in production
// mode on a database of their own, with a client that alternates between A and B. No
// browser: it reuses the production build Playwright's web server made (`next start` of
// the existing .next), which a Vitest integration test would have to build again.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { applyMigrations } from '../lib/db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase } from '../lib/db/scratch-database';
import { readSse } from '../lib/runs/testing/read-sse';

const base = Number(process.env.E2E_PORT ?? 3100);
// distinct per helper port (3200..3208 -> 3260..3268 and 3270..3278), configurable
const PORT_A = Number(process.env.E2E_INSTANCE_A_PORT ?? base + 60);
const PORT_B = Number(process.env.E2E_INSTANCE_B_PORT ?? base + 70);
const A = `http://127.0.0.1:${PORT_A}`;
const B = `http://127.0.0.1:${PORT_B}`;
const root = process.cwd();
const logDir = path.join(root, 'test-results', 'instances');

type Proc = { name: string; child: ChildProcess; exited: Promise<number | null> };

let adminUrl = '';
let dbName = '';
let url = '';
let client: pg.Client;
const procs: Proc[] = [];

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    SKILLYARD_MODE: 'production',
    SKILLYARD_SECRET_KEY: 'ab'.repeat(32),
    SKILLYARD_TRUSTED_PROXIES: '0',
    SKILLYARD_RUN_MAX_ACTIVE: '2',
    SKILLYARD_RUN_HEARTBEAT_SECONDS: '1',
    SKILLYARD_RUN_STALE_SECONDS: '4',
    SKILLYARD_DRAIN_SECONDS: '10',
    NEXT_MANUAL_SIG_HANDLE: '1',
    NODE_ENV: 'production',
    ...extra,
  };
  delete e.PORT;
  return e;
}

function start(name: string, args: string[], extra: Record<string, string>): Proc {
  fs.mkdirSync(logDir, { recursive: true });
  const out = fs.openSync(path.join(logDir, `${name}.log`), 'w');
  const child = spawn(process.execPath, args, { cwd: root, env: env(extra), stdio: ['ignore', out, out] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc = { name, child, exited };
  procs.push(proc);
  return proc;
}

const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const startWeb = (name: string, port: number, extra: Record<string, string> = {}) => start(name, ['--no-node-snapshot', nextBin, 'start', '--port', String(port)], extra);
// what `npm run worker` runs
const startWorker = (name: string) => start(name, ['--no-node-snapshot', '--conditions=react-server', '--import', 'tsx', 'scripts/worker.ts'], {});

const alive = (p: Proc) => p.child.exitCode === null && p.child.signalCode === null;

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function ready(origin: string) {
  await until(`${origin} to be ready`, async () => (await fetch(`${origin}/api/health/ready`)).status === 200, 90_000);
}

async function createRun(origin: string, config: Record<string, unknown>) {
  const res = await fetch(`${origin}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(config) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; controlToken: string };
}

const manual = { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait for a person' };

async function control(origin: string, run: { id: string; controlToken: string }, what: 'turns' | 'cancel', body: unknown = {}) {
  return fetch(`${origin}/api/v1/runs/${run.id}/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-run-control': run.controlToken },
    body: JSON.stringify(body),
  });
}

async function row(id: string) {
  const { rows } = await client.query('SELECT status, "lockedBy", error, result, attempts FROM "Run" WHERE id = $1', [id]);
  return rows[0] as { status: string; lockedBy: string | null; error: { code: string; message: string } | null; result: unknown; attempts: number };
}
const eventTypes = async (id: string) => (await client.query('SELECT type FROM "RunEvent" WHERE "runId" = $1 ORDER BY seq', [id])).rows.map((r) => r.type as string);
const awaitingInput = (id: string, n = 1) => until(`run ${id} to ask for input (${n})`, async () => (await eventTypes(id)).filter((t) => t === 'awaiting-input').length >= n);
const ended = (id: string) =>
  until(`run ${id} to end`, async () => {
    const r = await row(id);
    return ['succeeded', 'failed', 'cancelled'].includes(r.status) && r;
  });

/** the process executing a run, from its claim (`<pid>-<random>`) */
async function holderOf(id: string): Promise<Proc> {
  const { lockedBy } = await until(`run ${id} to be claimed`, async () => {
    const r = await row(id);
    return r.status === 'running' && r.lockedBy ? r : null;
  });
  const pid = Number(lockedBy!.split('-')[0]);
  const proc = procs.find((p) => p.child.pid === pid && alive(p));
  if (!proc) throw new Error(`run ${id} is held by pid ${pid}, none of this test's processes`);
  return proc;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // the e2e server's Postgres, a database of this file's own (no other spec's worker claims its runs)
  const e2eUrl = fs.readFileSync(path.join(root, '.data', 'e2e-database-url'), 'utf8').trim();
  const admin = new URL(e2eUrl);
  admin.pathname = '/postgres';
  adminUrl = admin.toString();
  dbName = await createScratchDatabase(adminUrl, 'skillyard_instances');
  url = databaseUrl(adminUrl, dbName);
  // deploy steps of production mode: migrate and seed are commands of their own
  await applyMigrations(url);
  const seed = start('seed', ['--conditions=react-server', '--import', 'tsx', 'scripts/seed.ts'], {});
  expect(await seed.exited).toBe(0);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  startWeb('web-a', PORT_A);
  startWeb('web-b', PORT_B, { SKILLYARD_WORKER: '0' });
  startWorker('worker-1');
  await Promise.all([ready(A), ready(B)]);
});

test.afterAll(async () => {
  for (const p of procs) if (alive(p)) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await client?.end();
  if (dbName) await dropScratchDatabase(adminUrl, dbName).catch(() => {});
});

test('a run created on A and streamed from B arrives without gaps', async () => {
  const run = await createRun(A, {
    skills: ['@skillyard/text-stats'],
    provider: 'scripted',
    task: 'three turns',
    script: ['1 + 1', '2 + 2', 'ctx.finish("done")'],
  });
  const res = await fetch(`${B}/api/v1/runs/${run.id}/events`);
  expect(res.status).toBe(200);
  const sse = await readSse(res.body!);
  expect(sse.ended).toBe(true);
  expect(sse.events.map((e) => e.id)).toEqual(sse.events.map((_, i) => i + 1));
  expect(sse.events.length).toBe((await eventTypes(run.id)).length);
  expect(sse.events.at(-1)?.data).toMatchObject({ type: 'run-end', status: 'succeeded' });
});

test("with B's LISTEN connection terminated, a stream from B still ends", async () => {
  const run = await createRun(B, manual);
  await awaitingInput(run.id);
  const reading = fetch(`${B}/api/v1/runs/${run.id}/events`).then((res) => readSse(res.body!));
  const web = procs.find((p) => p.name === 'web-b')!;
  const { rows } = await client.query('SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE application_name = $1', [`skillyard-listen-${web.child.pid}`]);
  expect(rows).toEqual([{ gone: true }]);
  expect((await control(A, run, 'turns', { turn: 'ctx.finish("heard")' })).status).toBe(200);
  const sse = await reading;
  expect(sse.ended).toBe(true);
  expect(sse.events.at(-1)?.data).toMatchObject({ type: 'run-end', status: 'succeeded' });
  expect(sse.events.map((e) => e.id)).toEqual(sse.events.map((_, i) => i + 1));
});

test('a 30 KB manual turn sent through B reaches the run', async () => {
  const run = await createRun(A, manual);
  await awaitingInput(run.id);
  const turn = { text: 'x'.repeat(15_000), code: `ctx.finish(${JSON.stringify('y'.repeat(15_000))}.length)` };
  expect(JSON.stringify(turn).length).toBeGreaterThan(30_000);
  const res = await control(B, run, 'turns', { turn });
  expect(res.status, await res.text()).toBe(200);
  expect(await ended(run.id)).toMatchObject({ status: 'succeeded', result: 15_000 });
});

test('a cancel through B stops a run executing elsewhere', async () => {
  const run = await createRun(A, manual);
  await awaitingInput(run.id);
  expect((await holderOf(run.id)).name).not.toBe('web-b');
  expect((await control(B, run, 'cancel')).status).toBe(200);
  expect(await ended(run.id)).toMatchObject({ status: 'cancelled' });
});

test('10 parallel run creations split across A and B respect a cap of 2', async () => {
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      fetch(`${i % 2 ? B : A}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(manual) }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { id: string; controlToken: string },
      })),
    ),
  );
  const created = results.filter((r) => r.status === 201);
  expect(created).toHaveLength(2);
  expect(results.filter((r) => r.status === 429)).toHaveLength(8);
  for (const r of created) expect((await control(B, r.body, 'cancel')).status).toBe(200);
  for (const r of created) await ended(r.body.id);
});

test('an MCP session opened on A works on B', async () => {
  const mcp = (origin: string) => `${origin}/api/mcp?skills=@skillyard/text-stats`;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(mcp(A), {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hop', version: '1' } } }),
  });
  expect(init.status).toBe(200);
  const session = init.headers.get('mcp-session-id')!;
  expect(session).toBeTruthy();
  await init.text();
  const withSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  const initialized = await fetch(mcp(B), { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  expect(initialized.status).toBe(202);
  const list = await fetch(mcp(B), { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
  expect(list.status).toBe(200);
  expect(await list.text()).toContain('"tools"');
  // and back on A
  const again = await fetch(mcp(A), { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
  expect(again.status).toBe(200);
  expect(await again.text()).toContain('"tools"');
});

test('a worker killed with SIGKILL mid-run has its run retried', async () => {
  const run = await createRun(B, manual);
  await awaitingInput(run.id);
  const holder = await holderOf(run.id);
  holder.child.kill('SIGKILL');
  await holder.exited;
  // another worker takes over: the one left, and a fresh `npm run worker`
  startWorker('worker-2');
  await awaitingInput(run.id, 2);
  const types = await eventTypes(run.id);
  expect(types).toContain('run-retry');
  expect((await control(B, run, 'turns', { turn: 'ctx.finish("second attempt")' })).status).toBe(200);
  expect(await ended(run.id)).toMatchObject({ status: 'succeeded', result: 'second attempt', attempts: 2 });
});

test('SIGTERM drains a worker without failing its run', async () => {
  const workers = () => procs.filter((p) => alive(p) && p.name !== 'web-b' && p.name !== 'seed');
  if (workers().length < 2) startWorker('worker-3');
  const run = await createRun(B, manual);
  await awaitingInput(run.id);
  const holder = await holderOf(run.id);
  holder.child.kill('SIGTERM');
  expect(await holder.exited).toBe(0);
  // handed back and claimed by another worker, which asks for the turn again
  await awaitingInput(run.id, 2);
  expect((await control(B, run, 'turns', { turn: 'ctx.finish("after drain")' })).status).toBe(200);
  expect(await ended(run.id)).toMatchObject({ status: 'succeeded', result: 'after drain' });
  expect((await eventTypes(run.id)).filter((t) => t === 'run-end')).toHaveLength(1);
});

test('production mode without the secret key refuses to start, naming it', async () => {
  const proc = start('no-secret', ['scripts/start.mjs', '--port', String(PORT_A + 5)], { SKILLYARD_SECRET_KEY: '' });
  expect(await proc.exited).toBe(1);
  expect(fs.readFileSync(path.join(logDir, 'no-secret.log'), 'utf8')).toContain('production mode needs SKILLYARD_SECRET_KEY');
});
