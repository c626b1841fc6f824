// The shared-memory lane (shm-lane.ts): two lanes in this process over one buffer and a
// real socket pair, then the pool with its workers on it, then a worker that lies in it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from './frame';
import { createSandboxPool } from './pool';
import { laneAddonFile, laneBytes, laneHelper, loadLaneAddon, ShmLane } from './shm-lane';
import { sandboxRoot } from './worker-build';

const built = loadLaneAddon(laneAddonFile(sandboxRoot())) !== null;
const compiler = spawnSync(process.env.CC || 'cc', ['--version']).status === 0;

describe.skipIf(process.platform !== 'linux')('shared-memory lane', () => {
  // without a C compiler the helper cannot be built and the pool uses pipes (tested below)
  it.skipIf(!compiler)('is built wherever a C compiler is (npm install runs scripts/build-lane.mjs)', () => {
    expect(built, 'native/build/shm-lane.node missing: run `npm run build:lane`').toBe(true);
  });

  it.skipIf(!built)('makes a shared file nobody can shrink or grow (a worker that shrank it would crash the server with SIGBUS)', () => {
    const addon = loadLaneAddon(laneAddonFile(sandboxRoot()))!;
    const fd = addon.memfd(laneBytes());
    try {
      expect(() => fs.ftruncateSync(fd, 0)).toThrow(/EPERM/);
      expect(() => fs.ftruncateSync(fd, 2 * laneBytes())).toThrow(/EPERM/);
      const view = new Uint8Array(addon.map(fd, laneBytes()));
      view[view.length - 1] = 1;
      expect(() => addon.map(fd, 2 * laneBytes())).toThrow(/shorter/);
    } finally {
      fs.closeSync(fd);
    }
  });

  it.skipIf(process.arch !== 'x64')('ships a prebuilt helper (for machines without a C compiler) built from the source beside it', () => {
    const prebuilt = loadLaneAddon(path.join(sandboxRoot(), 'native', 'prebuilt', 'linux-x64', 'shm-lane.node'));
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(sandboxRoot(), 'native', 'shm-lane.c')))
      .digest('hex');
    expect(prebuilt?.source(), 'refresh it: npm run build:lane -- --prebuilt').toBe(hash);
  });

  it.skipIf(!built)('does not use a helper built from other sources (a stale build after a pull): pipes instead', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-stale-lane-'));
    try {
      fs.mkdirSync(path.join(root, 'native', 'build'), { recursive: true });
      fs.copyFileSync(laneAddonFile(sandboxRoot()), laneAddonFile(root));
      fs.writeFileSync(path.join(root, 'native', 'shm-lane.c'), '// another version\n');
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.message);
      process.on('warning', onWarning);
      expect(laneHelper(root, undefined)).toBeNull();
      expect(laneHelper(sandboxRoot(), undefined)).not.toBeNull();
      expect(laneHelper(sandboxRoot(), 'pipe')).toBeNull();
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          process.off('warning', onWarning);
          expect(warnings.join()).toContain('was built from other sources than native/shm-lane.c');
          resolve();
        }),
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  describe('two lanes over one buffer', () => {
    let dir: string;
    let server: net.Server;
    let a: net.Socket;
    let b: net.Socket;
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-lane-'));
      const file = path.join(dir, 's');
      server = net.createServer();
      const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
      await new Promise<void>((resolve) => server.listen(file, resolve));
      a = net.connect(file);
      b = await accepted;
    });
    afterAll(() => {
      a.destroy();
      b.destroy();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const fdOf = (s: net.Socket) => () => (s as unknown as { _handle: { fd: number } })._handle.fd;

    function lanes(ring: number) {
      const memory = new ArrayBuffer(laneBytes(ring));
      const got = { pool: [] as unknown[], worker: [] as unknown[] };
      const bells = { pool: 0, worker: 0 };
      const pool = new ShmLane(memory, 'pool', { channel: a, fd: fdOf(a), onFrame: (m) => got.pool.push(m), onBroken: (why) => got.pool.push(`broken: ${why}`) }, ring);
      const worker = new ShmLane(memory, 'worker', { channel: b, fd: fdOf(b), onFrame: (m) => got.worker.push(m), onBroken: (why) => got.worker.push(`broken: ${why}`) }, ring);
      a.removeAllListeners('data');
      b.removeAllListeners('data');
      a.on('data', (chunk: Buffer) => ((bells.pool += chunk.length / 4), pool.fromPipe(chunk)));
      b.on('data', (chunk: Buffer) => ((bells.worker += chunk.length / 4), worker.fromPipe(chunk)));
      return { pool, worker, got, bells };
    }
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
    };

    it('carries a frame many times the ring in order with the frames around it, woken by doorbells alone', async () => {
      const { pool, got } = lanes(4096);
      const big = 'x'.repeat(5 * 2 ** 20);
      pool.send(encodeFrame({ n: 1 }));
      pool.send(encodeFrame({ n: 2, big }));
      pool.send(encodeFrame({ n: 3 }));
      await until(() => got.worker.length === 3);
      expect(got.worker.map((m) => (m as { n: number }).n)).toEqual([1, 2, 3]);
      expect((got.worker[1] as { big: string }).big).toBe(big);
    });

    it('gives up on a peer that stops reading once more than the largest frame waits', () => {
      const memory = new ArrayBuffer(laneBytes(4096));
      const broken: string[] = [];
      // no doorbells here (a closed channel): only the backlog matters
      const closed = { destroyed: true } as unknown as net.Socket;
      const lane = new ShmLane(memory, 'pool', { channel: closed, fd: () => -1, onFrame: () => {}, onBroken: (why) => broken.push(why) }, 4096, 64 * 1024);
      const frame = encodeFrame({ x: 'z'.repeat(8 * 1024) });
      for (let i = 0; i < 9 && broken.length === 0; i++) lane.send(frame);
      expect(broken).toEqual([expect.stringMatching(/^no reads while \d+ bytes waited$/)]);
    });

    it('rings no doorbell while the reader polls, and one for a burst while it sleeps', async () => {
      const { pool, worker, got, bells } = lanes(4096);
      worker.polling(true);
      pool.send(encodeFrame({ n: 1 }));
      expect(worker.poll()).toBe(true);
      worker.polling(false);
      for (let i = 2; i <= 6; i++) pool.send(encodeFrame({ n: i }));
      await until(() => got.worker.length === 6);
      expect(got.worker.map((m) => (m as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(bells.worker).toBe(1);
    });
  });

  describe.skipIf(!built)('the pool over shared memory', () => {
    it('runs jobs and carries host calls larger than the ring both ways', async () => {
      const pool = createSandboxPool({ workers: 1, lane: 'shm' });
      try {
        expect(pool.stats().lane).toBe('shm');
        const big = 'y'.repeat(3 * 2 ** 20);
        const res = await pool.run(
          { key: 'user:lane|echo', source: 'export default async (s) => (await host.echo(s)).length', entry: 'default', args: [big], hostMethods: ['echo'] },
          async (_m, args) => `${args[0]}!`,
        );
        expect(res).toMatchObject({ ok: true, value: big.length + 1 });
      } finally {
        await pool.close();
      }
    });

    const hostile = (name: string) => path.join(import.meta.dirname, 'fixtures', `hostile-worker-${name}.ts`);
    const someJob = { key: 'user:lane|lie', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] };

    it('kills a worker that lies about the ring, fails its job clearly and stays up', async () => {
      const pool = createSandboxPool({ workers: 1, lane: 'shm', workerFile: hostile('count') });
      try {
        const res = await pool.run(someJob, async () => null);
        expect(res).toMatchObject({
          ok: false,
          error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('the worker sent a write count past what the ring holds') },
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(pool.stats().restarts).toBeGreaterThanOrEqual(1);
      } finally {
        await pool.close();
      }
    });

    it('answers a doorbell flood with at most two ring reads per turn of the event loop: the loop keeps turning', async () => {
      const pool = createSandboxPool({ workers: 1, lane: 'shm', workerFile: hostile('bells') });
      let ticks = 0;
      const tick = setInterval(() => ticks++, 5);
      try {
        // the flooding worker never answers: the pool gives up at wallMs + 1 s and kills it
        const res = await pool.run({ ...someJob, limits: { wallMs: 500 } }, async () => null);
        expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/timeout' } });
        // one 64 KiB chunk of doorbells used to cost 16,384 ring reads (seconds of parsing
        // in one turn); now a turn parses at most two rings, and timers keep firing
        expect(ticks).toBeGreaterThanOrEqual(3);
      } finally {
        clearInterval(tick);
        await pool.close();
      }
    });

    it('no lost wake-ups: thousands of calls with polls that end mid-write, and with polling off', async () => {
      for (const spinUs of [10, 0]) {
        const pool = createSandboxPool({ workers: 1, lane: 'shm', spinUs });
        try {
          const job = { key: 'user:lane|wake', source: 'export default async (n) => (await host.next(n)) + 1', entry: 'default', args: [0], hostMethods: ['next'] };
          for (let i = 0; i < (spinUs ? 3000 : 500); i++) {
            const res = await pool.run({ ...job, args: [i], limits: { wallMs: 5000 } }, async (_m, args) => (args[0] as number) * 2);
            if (!res.ok || res.value !== i * 2 + 1) throw new Error(`call ${i} with spinUs ${spinUs}: ${JSON.stringify(res)}`);
          }
        } finally {
          await pool.close();
        }
      }
    }, 120_000);
  });

  describe('the pool over pipes', () => {
    it('runs the same jobs over pipes when asked (SKILLYARD_SANDBOX_LANE=pipe) or without the helper', async () => {
      const pool = createSandboxPool({ workers: 1, lane: 'pipe' });
      try {
        expect(pool.stats().lane).toBe('pipe');
        const res = await pool.run({ key: 'user:lane|pipe', source: 'export default (a) => a * 2', entry: 'default', args: [21], hostMethods: [] }, async () => null);
        expect(res).toMatchObject({ ok: true, value: 42 });
      } finally {
        await pool.close();
      }
    });
  });
});

describe('a worker that cannot open the shared-memory lane', () => {
  it.skipIf(!built)('exits before it is ready; the pool carries on over pipes', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const pool = createSandboxPool({ workers: 1, lane: 'shm', workerFile: path.join(import.meta.dirname, 'fixtures', 'worker-without-lane.ts') });
    try {
      const res = await pool.run({ key: 'user:lane|gone', source: 'export default (a) => a + 1', entry: 'default', args: [41], hostMethods: [] }, async () => null);
      expect(res).toMatchObject({ ok: true, value: 42 });
      expect(pool.stats().lane).toBe('pipe');
      expect(warnings.join()).toContain('sandbox workers use pipes from now on');
    } finally {
      process.off('warning', onWarning);
      await pool.close();
    }
  });
});

describe('frames of the wrong shape from a worker', () => {
  for (const lane of ['shm', 'pipe'] as const) {
    it(`kill the worker, not the server (${lane})`, async () => {
      if (lane === 'shm' && !built) return;
      const pool = createSandboxPool({ workers: 1, lane, workerFile: path.join(import.meta.dirname, 'fixtures', 'hostile-worker-shape.ts') });
      try {
        const res = await pool.run({ key: 'user:lane|shape', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] }, async () => null);
        expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('a frame that is no worker message') } });
      } finally {
        await pool.close();
      }
    });

    it(`end the job with the worker when a result of the right shape is not JSON, not at its timeout (${lane})`, async () => {
      if (lane === 'shm' && !built) return;
      const pool = createSandboxPool({ workers: 1, lane, workerFile: path.join(import.meta.dirname, 'fixtures', 'hostile-worker-badjson.ts') });
      try {
        // a deadline far past the test's own timeout: only the worker's end can answer in time
        const res = await pool.run(
          { key: 'user:lane|badjson', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [], limits: { wallMs: 600_000 } },
          async () => null,
        );
        expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('a frame of the wrong shape') } });
      } finally {
        await pool.close();
      }
    });
  }
});
