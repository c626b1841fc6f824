import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from '../testing/harness';
import { skill, tool } from '../testing/skills';
import type { LoadedSkill } from '../types';

afterAll(closeSharedSandbox);
const sb = () => sharedInProcessSandbox();

/** A malv skill with one tool `t` whose handler body is `body` ((input, capabilities) convention). */
function malv(capabilities: string[], body: string, opts: { metadata?: Record<string, unknown>; name?: string } = {}): LoadedSkill {
  const name = opts.name ?? 't';
  return skill('m', [tool(name, { capabilities, params: { type: 'object' }, handler: { kind: 'ts', ref: `src/tools/${name}.ts` } })], {
    format: 'malv',
    files: { [`src/tools/${name}.ts`]: `export default async function ${name}(input: any, capabilities: any) { ${body} }` },
    over: { metadata: opts.metadata ?? {} },
  });
}

describe('storage', () => {
  it('per-skill KV scoped to the caller, with namespaces (use())', async () => {
    const body = `const notes = capabilities.storage.use('@my-org/notes');
      await notes.put('/a.json', { t: input.t });
      await capabilities.storage.put('k', 1);
      return { a: await notes.get('/a.json'), list: await notes.list('/'), k: await capabilities.storage.get('k'), missing: await notes.get('/zz') };`;
    const s = malv(['storage'], body);
    const { manager, providers } = createManager(sb(), [s]);
    expect(await manager.invoke('t', { t: 'x' })).toEqual({ a: { t: 'x' }, list: ['/a.json'], k: 1, missing: null });
    // another caller sees nothing of u1's data
    const other = createManager(sb(), [malv(['storage'], `return await capabilities.storage.use('@my-org/notes').get('/a.json');`)], {
      caller: { id: 'u2' },
      providers: { storage: providers.storage },
    });
    expect(await other.manager.invoke('t', {})).toBeNull();
  });
});

describe('undeclared capabilities', () => {
  it('are absent in the guest, and touching one names the missing declaration', async () => {
    const s = malv(
      ['storage'],
      `
      const present = Object.keys(capabilities).sort();
      let err = null;
      try { capabilities.net.fetch('http://x'); } catch (e) { err = { code: e.code, message: e.message }; }
      return { present, hasNet: 'net' in capabilities, err };`,
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('t', {})).toEqual({
      present: ['storage', 'tokens'],
      hasNet: false,
      err: { code: 'capability/not-declared', message: 'capability "net" is not declared by tool t (declared: storage); add "net" to its capabilities' },
    });
  });
  it('an uncaught access fails the invocation with capability/not-declared', async () => {
    const { manager } = createManager(sb(), [malv([], `return capabilities.storage.get('x');`)]);
    await expect(manager.invoke('t', {})).rejects.toMatchObject({
      code: 'capability/not-declared',
      message: 'capability "storage" is not declared by tool t (declared: none); add "storage" to its capabilities',
    });
  });
  it('the host refuses a granted-elsewhere method too (no host method is offered)', async () => {
    const s = malv([], `return await host.storage_get('default', 'x');`);
    const { manager } = createManager(sb(), [s]);
    await expect(manager.invoke('t', {})).rejects.toMatchObject({ code: 'tool/failed' });
  });
});

describe('token sign/verify', () => {
  it('signs and verifies; a tampered token does not verify', async () => {
    const s = malv(
      ['token'],
      `
      const t = await capabilities.token.sign({ sub: 'ada' }, { expiresInSeconds: 60 });
      const good = await capabilities.token.verify(t);
      const bad = await capabilities.token.verify(t.slice(0, -2) + 'xx');
      return { good, bad };`,
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('t', {})).toEqual({ good: { valid: true, payload: { sub: 'ada' } }, bad: { valid: false, reason: 'bad signature' } });
  });
});

describe('environment', () => {
  it("reads the caller's workspace secrets", async () => {
    const { manager } = createManager(sb(), [malv(['environment'], `return [await capabilities.environment.get('API_KEY'), await capabilities.environment.get('NOPE')];`)]);
    expect(await manager.invoke('t', {})).toEqual(['sk-test', null]);
  });
});

describe('event', () => {
  it('publishes to subscribers, which are invoked through the pipeline with {topic, data}', async () => {
    const s = skill(
      'ev',
      [
        tool('sub', { capabilities: ['event'], handler: { kind: 'ts', ref: 'sub.ts' } }),
        tool('on-note', { visibility: 'hidden', capabilities: ['storage'], params: { type: 'object' }, handler: { kind: 'ts', ref: 'on.ts' } }),
        tool('pub', { capabilities: ['event', 'storage'], handler: { kind: 'ts', ref: 'pub.ts' } }),
      ],
      {
        format: 'malv',
        files: {
          'sub.ts': `export default async (i: any, c: any) => (await c.event.subscribe('notes', 'on-note')).topic`,
          'on.ts': `export default async (i: any, c: any) => { await c.storage.put('last', i); return 'ok'; }`,
          'pub.ts': `export default async (i: any, c: any) => { const r = await c.event.publish('notes', { id: 7 }); return { r, last: await c.storage.get('last') }; }`,
        },
      },
    );
    const { manager, providers } = createManager(sb(), [s]);
    expect(await manager.invoke('sub')).toBe('notes');
    expect(await manager.invoke('pub')).toEqual({ r: { delivered: 1, errors: [] }, last: { topic: 'notes', data: { id: 7 } } });
    expect(providers.events.events.map((e) => [e.topic, e.data])).toEqual([['notes', { id: 7 }]]);
  });
});

describe('tool', () => {
  it('invokes other tools through the same pipeline (allowed-tools and validation apply)', async () => {
    const s = skill(
      'tk',
      [
        tool('caller', { capabilities: ['tool'], handler: { kind: 'ts', ref: 'c.ts' } }),
        tool('double', { params: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, handler: { kind: 'ts', ref: 'd.ts' } }),
      ],
      {
        format: 'malv',
        files: {
          'c.ts': `export default async (i: any, c: any) => { let e = null; try { await c.tool.invoke('double', { n: 'x' }); } catch (x: any) { e = x.code; } return { v: await c.tool.invoke('double', { n: 4 }), e }; }`,
          'd.ts': `export default async (i: any) => i.n * 2`,
        },
      },
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('caller')).toEqual({ v: 8, e: 'params/invalid' });
  });
});

describe('ai', () => {
  it('completes through the configured model callback', async () => {
    const { manager } = createManager(sb(), [malv(['ai'], `return (await capabilities.ai.complete({ system: 'be brief', prompt: 'hi' })).text;`)]);
    expect(await manager.invoke('t', {})).toBe('echo: hi');
  });
  it('without a configured model the error says so', async () => {
    const { manager } = createManager(sb(), [malv(['ai'], `return capabilities.ai.complete('hi');`)], { providers: { ai: undefined } });
    await expect(manager.invoke('t', {})).rejects.toMatchObject({ code: 'capability/unavailable' });
  });
});

describe('object', () => {
  it('emits a structured component into the trace', async () => {
    const { manager, objects } = createManager(sb(), [malv(['object'], `const r = await capabilities.object.create('chart', { points: [1, 2] }); return typeof r.id;`)]);
    expect(await manager.invoke('t', {})).toBe('string');
    expect(objects).toEqual([{ id: expect.any(String), type: 'chart', props: { points: [1, 2] }, skill: 'm', tool: 't' }]);
  });
});

describe('net', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/big') return res.end('x'.repeat(5000));
      if (req.url === '/redirect-out') {
        res.writeHead(302, { location: 'http://localhost:1/elsewhere' });
        return res.end();
      }
      if (req.url === '/redirect-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 1000);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const fetchSkill = (path: string, hosts: string[]) =>
    malv(['net'], `const r = await capabilities.net.fetch('http://127.0.0.1:${port}${path}'); return { status: r.status, body: await r.json() };`, {
      metadata: { net: { hosts } },
    });

  // the test server is on loopback, which only an operator's allowance makes reachable
  const loopback = { net: { allowRanges: ['127.0.0.1/32'] } };

  it('fetches from a host the manifest lists, on an address the operator allows', async () => {
    const { manager } = createManager(sb(), [fetchSkill('/hello', ['127.0.0.1'])], { providers: loopback });
    expect(await manager.invoke('t', {})).toEqual({ status: 200, body: { method: 'GET', url: '/hello' } });
  });
  it('refuses unlisted hosts, unlisted redirect targets, oversized bodies and slow answers', async () => {
    await expect(createManager(sb(), [fetchSkill('/hello', ['example.com'])]).manager.invoke('t', {})).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: expect.stringContaining(`host 127.0.0.1:${port} is not listed`),
    });
    await expect(createManager(sb(), [fetchSkill('/redirect-out', ['127.0.0.1'])], { providers: loopback }).manager.invoke('t', {})).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: expect.stringContaining('host localhost:1 is not listed'),
    });
    const small = { net: { maxBytes: 1000, timeoutMs: 200, allowRanges: ['127.0.0.1/32'] } };
    await expect(createManager(sb(), [fetchSkill('/big', ['127.0.0.1'])], { providers: small }).manager.invoke('t', {})).rejects.toMatchObject({ code: 'net/too-large' });
    await expect(createManager(sb(), [fetchSkill('/slow', ['127.0.0.1'])], { providers: small }).manager.invoke('t', {})).rejects.toMatchObject({ code: 'net/timeout' });
  });

  it('refuses loopback even when the manifest allows every host (no operator allowance)', async () => {
    await expect(createManager(sb(), [fetchSkill('/hello', ['*'])]).manager.invoke('t', {})).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: expect.stringContaining('127.0.0.1 is a loopback address'),
    });
  });

  it('refuses a redirect to the cloud metadata address, before connecting', async () => {
    await expect(createManager(sb(), [fetchSkill('/redirect-metadata', ['*'])], { providers: loopback }).manager.invoke('t', {})).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: expect.stringContaining('169.254.169.254 is a link-local (cloud metadata) address'),
    });
  });
});
