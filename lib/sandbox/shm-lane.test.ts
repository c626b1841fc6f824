// The shared-memory lane (shm-lane.ts): two lanes in this process over one buffer and a
// real socket pair, then the pool with its workers on it, then a worker that lies in it.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from './frame';
import { createSandboxPool, laneAddonFile } from './pool';
import { laneBytes, loadLaneAddon, ShmLane } from './shm-lane';
import { sandboxRoot } from './worker-build';

const built = loadLaneAddon(laneAddonFile(sandboxRoot())) !== null;

describe.skipIf(process.platform !== 'linux')('shared-memory lane', () => {
  it('is built (npm install runs scripts/build-lane.mjs; without a C compiler the pool uses pipes)', () => {
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

    it('kills a worker that lies about the ring, fails its job clearly and stays up', async () => {
      const workerFile = path.join(import.meta.dirname, 'fixtures', 'hostile-lane-worker.ts');
      const pool = createSandboxPool({ workers: 1, lane: 'shm', workerFile });
      try {
        const res = await pool.run({ key: 'user:lane|lie', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] }, async () => null);
        expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('the worker sent a write count past what the ring holds') } });
        await new Promise((r) => setTimeout(r, 300));
        expect(pool.stats().restarts).toBeGreaterThanOrEqual(1);
      } finally {
        await pool.close();
      }
    });

    it('runs the same jobs over pipes when asked (SKILLYARD_SANDBOX_LANE=pipe)', async () => {
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
