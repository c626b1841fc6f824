import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
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
});
