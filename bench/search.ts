// bench/search: loads 100,000 generated skills (bench/search-corpus.ts) into a throwaway
// database, builds the search documents, then times searchSkills() over 60+ varied
// queries (words, two words, typos, tool names, filters, sorts, paging; those the home
// page sends as it sends them: 60 a page with the counts per format), and suggestSkills()
// at every keystroke of typed names and words (some with swapped letters). Prints JSON.
//   npm run bench:search [-- --skills 100000 --rounds 3] [--keep] [--reuse <database>] [--plain] [--data bench]
// --keep leaves the loaded database in .data/<data> (default .data/bench; BENCH_PG_PORT,
// default 54339); --reuse times an earlier --keep database again (pending migrations
// applied, no load; the corpus size is read from it). The load writes each row once and
// builds the search tables' indexes after their rows (bench/search-load.ts).
import fs from 'node:fs';
import pg from 'pg';
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';
import { refreshAllSkillSearch } from '../lib/registry/refresh-skill-search';
import { searchSkills } from '../lib/registry/search-skills';
import { generateSkill, rng } from './search-corpus';
import { createIndexes, dropIndexes, load, queries, suggestQueries, type LoadedSkill } from './search-load';
import { suggestSkills } from '../lib/registry/suggest-skills';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
let SKILLS = arg('skills', 100_000);
const ROUNDS = arg('rounds', 3);
// --plain: the query mix without the home page's 60 a page and facets (as measured before 2026-11-26)
const PLAIN = process.argv.includes('--plain');
const REUSE = process.argv.includes('--reuse') ? process.argv[process.argv.indexOf('--reuse') + 1] : undefined;
const DATA = process.argv.includes('--data') ? process.argv[process.argv.indexOf('--data') + 1] : 'bench';
// progress on stderr (a load of 1,000,000 takes a while)
const note = (msg: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${msg} (load ${loadAverage()[0]})`);
// the machine is shared: the load average says how much of it the figures had
const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

/**
 * The CPU time the database's server processes have used so far, in ms (Linux, a server on
 * this machine; null otherwise): per query, it leaves out the wait for a core that the wall
 * clock counts on a busy machine (a core shared with a busy neighbour still slows it). Read
 * after the warm-up, when the client's pool holds its connections.
 */
async function backendCpu(url: string): Promise<(() => number) | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const pids: number[] = (await c.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  await c.end();
  // (a connection the pool closes keeps its last figure)
  const last = new Map<number, number>();
  const ns = (pid: number) => {
    try {
      last.set(pid, Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {}
    return last.get(pid) ?? NaN;
  };
  const read = () => pids.reduce((sum, pid) => sum + ns(pid), 0) / 1e6;
  return pids.length && Number.isFinite(read()) ? read : null;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number) => Math.round(n * 100) / 100;

const server = await startScratchServer(DATA, Number(process.env.BENCH_PG_PORT ?? 54339));
const name = REUSE ?? (await createScratchDatabase(server.adminUrl, 'skillyard_bench'));
const url = databaseUrl(server.adminUrl, name);
try {
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // the server stopping at the end; a failure shows as the query's own error
  await client.connect();
  if (REUSE) SKILLS = Number((await client.query('SELECT count(*) AS n FROM "Skill"')).rows[0].n);
  const r = rng(42);
  const next = (() => {
    let i = 0;
    return () => generateSkill(r, i++);
  })();
  const db = createDb(url);
  let skills: LoadedSkill[];
  let loadMs = 0;
  const started = performance.now();
  if (REUSE) {
    // the same corpus, regenerated, for the same query mix
    skills = Array.from({ length: SKILLS }, () => {
      const s = next();
      return { scope: s.scope, name: s.name, tools: [{ name: s.tools[0].name }] };
    });
  } else {
    const later = await dropIndexes(client, ['SkillSearch', 'SkillSearchBody', 'SearchLexeme', 'SearchWord']);
    const skillIndexes = await dropIndexes(client, ['Skill', 'SkillVersion', 'Tool']);
    skills = await load(client, SKILLS, next, (n) => n % 100_000 === 0 && note(`loaded ${n}`));
    await createIndexes(client, skillIndexes);
    loadMs = performance.now() - started;
    note('skills loaded');
    await refreshAllSkillSearch(db, { words: false, progress: (n) => note(`search documents of ${n}`) });
    await createIndexes(client, later);
    note('search indexes built');
  }
  await client.query('VACUUM ANALYZE');
  const indexMs = performance.now() - started - loadMs;
  const words = Number((await client.query('SELECT count(*) AS n FROM "SearchWord"')).rows[0].n);
  note('timing');
  await client.end();

  const loadBefore = loadAverage();
  const qs = queries(rng(7), skills, !PLAIN);
  for (const q of qs) await searchSkills(db, q.query); // warm-up
  const cpu = await backendCpu(url);
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  const byKind = new Map<string, number[]>();
  const cpuByKind = new Map<string, number[]>();
  let hits = 0;
  let empty = 0;
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    for (const q of qs) {
      const cpuBefore = cpu?.();
      const started = performance.now();
      const res = await searchSkills(db, q.query);
      const ms = performance.now() - started;
      samples.push(ms);
      if (!byKind.has(q.kind)) byKind.set(q.kind, []);
      byKind.get(q.kind)!.push(ms);
      if (cpu) {
        const used = cpu() - cpuBefore!;
        cpuSamples.push(used);
        if (!cpuByKind.has(q.kind)) cpuByKind.set(q.kind, []);
        cpuByKind.get(q.kind)!.push(used);
      }
      if (round_ === 0) {
        hits += res.total;
        if (res.total === 0) empty++;
      }
    }
  }
  samples.sort((a, b) => a - b);
  cpuSamples.sort((a, b) => a - b);
  // suggestions: one call per keystroke of each typed query
  const sq = suggestQueries(rng(11), skills);
  for (const q of sq.slice(0, 40)) await suggestSkills(db, { q: q.q }); // warm-up
  const suggestSamples: number[] = [];
  const suggestCpu: number[] = [];
  const suggestByKind = new Map<string, number[]>();
  let suggestEmpty = 0;
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    for (const q of sq) {
      const cpuBefore = cpu?.();
      const started = performance.now();
      const res = await suggestSkills(db, { q: q.q });
      const ms = performance.now() - started;
      suggestSamples.push(ms);
      if (cpu) suggestCpu.push(cpu() - cpuBefore!);
      if (!suggestByKind.has(q.kind)) suggestByKind.set(q.kind, []);
      suggestByKind.get(q.kind)!.push(ms);
      if (round_ === 0 && res.suggestions.length === 0) suggestEmpty++;
    }
  }
  suggestSamples.sort((a, b) => a - b);
  suggestCpu.sort((a, b) => a - b);
  // the floor on this machine now: a query that does nothing, through the same client
  const floor: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await db.$queryRaw`SELECT 1`;
    floor.push(performance.now() - started);
  }
  floor.sort((a, b) => a - b);
  for (const [k, v] of suggestByKind) byKind.set(k, v);
  const kinds = Object.fromEntries(
    [...byKind].map(([k, v]) => {
      const s = [...v].sort((a, b) => a - b);
      const c = [...(cpuByKind.get(k) ?? [])].sort((a, b) => a - b);
      return [k, { p50: round(pct(s, 50)), p95: round(pct(s, 95)), ...(c.length ? { cpuP95: round(pct(c, 95)) } : {}) }];
    }),
  );
  await db.$disconnect();
  console.log(
    JSON.stringify(
      {
        bench: 'search',
        skills: SKILLS,
        database: REUSE ? `reused ${name}` : undefined,
        loadAverage: { before: loadBefore, after: loadAverage() },
        searchWords: words,
        loadSeconds: round(loadMs / 1000),
        indexSeconds: round(indexMs / 1000),
        queries: qs.length,
        homePageQueries: qs.filter((q) => q.query.facets).length,
        rounds: ROUNDS,
        samples: samples.length,
        p50Ms: round(pct(samples, 50)),
        p95Ms: round(pct(samples, 95)),
        maxMs: round(samples[samples.length - 1]),
        ...(cpuSamples.length ? { postgresCpu: { p50Ms: round(pct(cpuSamples, 50)), p95Ms: round(pct(cpuSamples, 95)) } } : {}),
        meanHitsPerQuery: Math.round(hits / qs.length),
        selectOneFloor: { p50Ms: round(pct(floor, 50)), p95Ms: round(pct(floor, 95)) },
        suggest: {
          keystrokes: sq.length,
          samples: suggestSamples.length,
          p50Ms: round(pct(suggestSamples, 50)),
          p95Ms: round(pct(suggestSamples, 95)),
          maxMs: round(suggestSamples[suggestSamples.length - 1]),
          ...(suggestCpu.length ? { postgresCpu: { p50Ms: round(pct(suggestCpu, 50)), p95Ms: round(pct(suggestCpu, 95)) } } : {}),
          keystrokesWithNoSuggestion: suggestEmpty,
        },
        queriesWithNoHits: empty,
        byKind: kinds,
      },
      null,
      2,
    ),
  );
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  if (process.argv.includes('--keep') || REUSE) console.error(`kept ${url} (the embedded server stops with this process)`);
  else await dropScratchDatabase(server.adminUrl, name).catch(() => {});
  await server.stop();
}
