// bench/publish: publishes per second for small packages (a SKILL.md and one tool
// script, ~1 KB) through the whole publish path (read, limits, scan, tarball, integrity,
// one transaction, search document), one at a time and four at once, on a throwaway
// database. Prints JSON.   npm run bench:publish [-- --count 200]
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';
import { publishPackage } from '../lib/registry/publish-package';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const COUNT = arg('count', 200);
const enc = new TextEncoder();

function files(name: string) {
  const skill = `---\nname: ${name}\ndescription: Counts the words of a text for benchmark ${name}.\nmetadata:\n  version: 1.0.0\n---\n\n# ${name}\n\nUse the count tool to count words.\n`;
  const tools = JSON.stringify([{ name: 'count', description: 'Count words', script: 'scripts/count.js', parameters: { text: { type: 'string', description: 'The text' } } }]);
  const script = 'export default async function (ctx, args) { return { words: String(args.text).split(/\\s+/).filter(Boolean).length }; }\n';
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
  await db.$disconnect();
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify(
      {
        bench: 'publish',
        packageBytes: files('x').reduce((n, f) => n + f.content.byteLength, 0),
        publishes: COUNT,
        sequential: { perSecond: round((COUNT / sequentialMs) * 1000), meanMs: round(sequentialMs / COUNT) },
        concurrent4: { perSecond: round((COUNT / concurrentMs) * 1000) },
      },
      null,
      2,
    ),
  );
} finally {
  await dropScratchDatabase(server.adminUrl, dbName).catch(() => {});
  await server.stop();
}
