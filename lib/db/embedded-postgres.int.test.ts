import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-pg-'));
  fs.chmodSync(dir, 0o755); // the server runs as its own user
  dirs.push(dir);
  return dir;
}

describe('the embedded Postgres', () => {
  it('says clearly when its port is taken, instead of hanging', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(startEmbeddedPostgres({ dataDir: tempDataDir(), port })).rejects.toThrow(new RegExp(`Port ${port} is already in use.*SKILLYARD_PG_PORT`));
    } finally {
      blocker.close();
    }
  });

  it('refuses to start twice on one data folder, and reuses the data on the next start', async () => {
    const dataDir = tempDataDir();
    const first = await startEmbeddedPostgres({ dataDir, port: 54391 });
    try {
      await expect(startEmbeddedPostgres({ dataDir, port: 54392 })).rejects.toThrow(/already running \(pid \d+\)/);
    } finally {
      await first.stop();
    }
    const again = await startEmbeddedPostgres({ dataDir, port: 54391 });
    expect(again.url).toBe(first.url); // same credentials, same database
    await again.stop();
  });

  it("keeps npm start's data safe from a machine crash (fsync on), and only throwaway servers skip it", async () => {
    const settings = async (durable: boolean | undefined) => {
      const server = await startEmbeddedPostgres({ dataDir: tempDataDir(), port: 54393, ...(durable === undefined ? {} : { durable }) });
      const client = new pg.Client({ connectionString: server.url });
      try {
        await client.connect();
        const show = async (name: string) => (await client.query(`SHOW ${name}`)).rows[0][name];
        return { fsync: await show('fsync'), synchronous_commit: await show('synchronous_commit') };
      } finally {
        await client.end();
        await server.stop();
      }
    };
    expect(await settings(undefined)).toEqual({ fsync: 'on', synchronous_commit: 'off' });
    expect(await settings(false)).toMatchObject({ fsync: 'off' });
  });
});
