// bench/upload: how late a 10 ms timer fires at worst (the event loop's delay) while a
// large upload (~1,900 text files, ~27 MB) is read and scanned in this thread and in the
// upload worker, packed off the thread, and published (files in batches), and while an
// incompressible 30 MB package is published (tarball in parts). The tests check that the
// work leaves the event loop (lib/registry/upload-reader.int.test.ts); this prints how
// well. Prints JSON.   npm run bench:upload
import crypto from 'node:crypto';
import os from 'node:os';
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';
import { packTarball } from '../lib/registry/package-tarball';
import { publishVersion } from '../lib/registry/publish-version';
import { readAndScanUpload } from '../lib/registry/read-and-scan';
import { packPackageOffThread, uploadReader } from '../lib/registry/upload-reader';

const enc = new TextEncoder();

function textPackage(): Uint8Array {
  const files = [{ path: 'SKILL.md', content: enc.encode(`---\nname: big\ndescription: A large package.\nversion: 1.0.0\n---\n\nSay hello.\n`) }];
  const line = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.\n';
  for (let i = 0; i < 1_900; i++) files.push({ path: `docs/part-${i}.md`, content: enc.encode(`# Part ${i} ${Math.random()}\n` + line.repeat(140)) });
  return packTarball(files, 'big');
}

function blobPackage(): Uint8Array {
  const files = [{ path: 'SKILL.md', content: enc.encode(`---\nname: blobs\ndescription: Incompressible assets.\nversion: 1.0.0\n---\n\nHi.\n`) }];
  for (let i = 0; i < 30; i++) files.push({ path: `assets/blob-${i}.bin`, content: new Uint8Array(crypto.randomBytes(1_000_000)) });
  return packTarball(files, 'blobs');
}

/** Runs `work` beside a 10 ms timer that reschedules itself: the worst lateness and the time taken. */
async function timed(work: () => unknown): Promise<{ ms: number; worstDelayMs: number }> {
  let worst = 0;
  let running = true;
  const tick = () => {
    const scheduled = performance.now();
    setTimeout(() => {
      worst = Math.max(worst, performance.now() - scheduled - 10);
      if (running) tick();
    }, 10);
  };
  tick();
  const started = performance.now();
  try {
    await work();
    const ms = Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20)); // the tick that work held up fires (and counts) first
    return { ms, worstDelayMs: Math.round(worst) };
  } finally {
    running = false;
  }
}

const server = await startScratchServer('bench', Number(process.env.BENCH_PG_PORT ?? 54339));
const dbName = await createScratchDatabase(server.adminUrl, 'skillyard_bench_upload');
const url = databaseUrl(server.adminUrl, dbName);
try {
  await applyMigrations(url);
  const db = createDb(url);
  const user = await db.user.create({ data: { handle: 'bench', name: 'bench' } });
  await db.scope.create({ data: { name: 'bench', kind: 'user', userId: user.id } });
  const archive = textPackage();
  const upload = { kind: 'bytes' as const, bytes: archive, fileName: 'big.tgz' };
  await uploadReader().read(upload); // start the worker
  const inThread = await timed(() => readAndScanUpload(upload));
  const inWorker = await timed(() => uploadReader().read(upload));
  const { pkg, findings } = readAndScanUpload(upload);
  const pack = await timed(() => packPackageOffThread(pkg.files, 'big'));
  const publish = await timed(() => publishVersion(db, { scope: 'bench', manifest: pkg.manifest!, files: pkg.files, findings, version: '1.0.0', publishedById: user.id }));
  const blobs = readAndScanUpload({ kind: 'bytes', bytes: blobPackage(), fileName: 'blobs.tgz' });
  const publishBlobs = await timed(() =>
    publishVersion(db, { scope: 'bench', manifest: blobs.pkg.manifest!, files: blobs.pkg.files, findings: blobs.findings, version: '1.0.0', publishedById: user.id }),
  );
  await db.$disconnect();
  console.log(
    JSON.stringify(
      {
        bench: 'upload',
        loadAverage: os.loadavg()[0],
        package: { files: pkg.files.length, bytes: pkg.files.reduce((n, f) => n + f.content.byteLength, 0) },
        readInThread: inThread,
        readInWorker: inWorker,
        packOffThread: pack,
        publishFilesInBatches: publish,
        publish30MbIncompressible: publishBlobs,
      },
      null,
      2,
    ),
  );
} finally {
  await uploadReader().close();
  await dropScratchDatabase(server.adminUrl, dbName).catch(() => {});
  await server.stop();
}
