// bench/publish: publishes per second for small packages (a SKILL.md and one tool
// script, ~1 KB) through the whole publish path (read, limits, scan, tarball, integrity,
// one transaction, search document), one at a time and four at once, on a throwaway
// database, with the publish-time runs on (an evidence worker with a sandbox pool runs
// each version's example meanwhile, as a server does); then the time from a publish to
// its evidence being there (p50/p95): after the burst (queue backlog included) and one
// publish at a time. Prints JSON.   npm run bench:publish [-- --count 200 --paced 20]
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';
import { publishPackage } from '../lib/registry/publish-package';
import { startEvidenceWorker } from '../lib/evidence';
import { createSandboxPool } from '../lib/sandbox';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const COUNT = arg('count', 200);
const PACED = arg('paced', 20);
const enc = new TextEncoder();

function files(name: string) {
  const skill = `---\nname: ${name}\ndescription: Counts the words of a text for benchmark ${name}.\nmetadata:\n  version: 1.0.0\n---\n\n# ${name}\n\nUse the count tool to count words.\n`;
  const tools = JSON.stringify([
    {
      name: 'count',
      description: 'Count words',
      script: 'scripts/count.js',
      parameters: { text: { type: 'string', description: 'The text' } },
      examples: [{ arguments: { text: 'one two three' }, expected: { words: 3 } }],
    },
  ]);
  const script = 'export default async function (args) { return { words: String(args.text).split(/\\s+/).filter(Boolean).length }; }\n';
  return [
    { path: `${name}/SKILL.md`, content: enc.encode(skill) },
    { path: `${name}/tools.json`, content: enc.encode(tools) },
    { path: `${name}/scripts/count.js`, content: enc.encode(script) },
  ];
}

const server = await startScratchServer('bench', Number(process.env.BENCH_PG_PORT ?? 54339));
const dbName = await createScratchDatabase(server.adminUrl, 'skillyard_bench_publish');
const url = databaseUrl(server.adminUrl, dbName);
try {
  await applyMigrations(url);
  const db = createDb(url);
  const user = await db.user.create({ data: { handle: 'bench', name: 'bench' } });
  await db.scope.create({ data: { name: 'bench', kind: 'user', userId: user.id } });
  const publishOne = (name: string) => publishPackage(db, { upload: { kind: 'files', files: files(name) }, userId: user.id, scope: 'bench' });
  const sandbox = createSandboxPool({ workers: 1 });
  const worker = startEvidenceWorker({ db, sandbox }, { pollMs: 200 });
  await publishOne('warm-up');

  let started = performance.now();
  for (let i = 0; i < COUNT; i++) await publishOne(`seq-${i}`);
  const sequentialMs = performance.now() - started;

  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < COUNT) await publishOne(`par-${next++}`);
    }),
  );
  const concurrentMs = performance.now() - started;

  // publish to evidence: the burst above (its backlog included), then one publish at a time
  const latencies = async (names: string[]) => {
    const rows = await db.versionEvidence.findMany({
      where: { version: { skill: { scopeName: 'bench', name: { in: names } } } },
      select: { status: true, finishedAt: true, version: { select: { createdAt: true } } },
    });
    return rows.map((r) => (r.finishedAt ? r.finishedAt.getTime() - r.version.createdAt.getTime() : Infinity)).sort((a, b) => a - b);
  };
  const burstStarted = performance.now();
  await worker.idle();
  const drainMs = performance.now() - burstStarted;
  const burst = await latencies(Array.from({ length: COUNT }, (_, i) => [`seq-${i}`, `par-${i}`]).flat());
  const paced: number[] = [];
  for (let i = 0; i < PACED; i++) {
    const t0 = performance.now();
    const { published } = await publishOne(`paced-${i}`);
    for (;;) {
      const row = await db.versionEvidence.findUnique({ where: { versionId: published.versionId }, select: { status: true } });
      if (row?.status === 'done' || row?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    paced.push(performance.now() - t0);
  }
  paced.sort((a, b) => a - b);
  const failed = await db.versionEvidence.count({ where: { status: 'failed' } });
  // the runs did run the example (a sandbox that failed every call would look fast)
  const outcomes = await db.$queryRaw<Array<{ outcome: string | null; n: bigint }>>`
    SELECT evidence->'tools'->0->'examples'->0->>'outcome' AS outcome, count(*) AS n FROM "VersionEvidence" GROUP BY 1`;
  await worker.stop();
  await sandbox.close();
  await db.$disconnect();
  const pct = (xs: number[], p: number) => (xs.length ? Math.round(xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]) : null);
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify(
      {
        bench: 'publish',
        packageBytes: files('x').reduce((n, f) => n + f.content.byteLength, 0),
        publishes: COUNT,
        sequential: { perSecond: round((COUNT / sequentialMs) * 1000), meanMs: round(sequentialMs / COUNT) },
        concurrent4: { perSecond: round((COUNT / concurrentMs) * 1000) },
        publishTimeRuns: 'on (one evidence worker, one sandbox worker, in this process)',
        publishToEvidenceMs: {
          afterBurst: { versions: burst.length, p50: pct(burst, 50), p95: pct(burst, 95), drainAfterBurstMs: Math.round(drainMs) },
          oneAtATime: { versions: paced.length, p50: pct(paced, 50), p95: pct(paced, 95) },
        },
        evidenceFailed: failed,
        exampleOutcomes: Object.fromEntries(outcomes.map((o) => [o.outcome ?? 'none', Number(o.n)])),
      },
      null,
      2,
    ),
  );
} finally {
  await dropScratchDatabase(server.adminUrl, dbName).catch(() => {});
  await server.stop();
}
