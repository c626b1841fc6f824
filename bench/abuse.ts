// An innocent client beside an attacker, against one production server (`node
// scripts/start.mjs` on a throwaway database, 127.0.0.1 only). The innocent client (an API
// token) invokes count-words at a steady pace; the attacker (anonymous, like the attack
// review of issue 8) floods with manual runs that wait for turns, allowed-tools ReDoS globs,
// huge bodies (declared and streamed), JSON nested 5,000 deep, hundreds of parallel
// invokes, and catastrophic guest code (huge Map, Array(2**28).flat(), endless loops);
// and the second review's (issue 23): form posts of hundreds of thousands of tiny
// multipart parts (anonymous and with a made-up session cookie), downloads of an 18 MB
// tarball that stop reading, views of a 24 MB file and of a 16 KB TypeScript file (the
// largest shown highlighted), pages of a skill with 13,000 tools, and pages of a skill whose
// readme is 256 KB of markdown.
// Prints JSON: the innocent client's p50/p95 latency and errors alone and under attack,
// the same for an innocent visitor's skill-page views (ABUSE_PAGE_RATE a second; default 0,
// none: a view a second of a skill page doubles the API client's p95 even alone), and what the attacker got back. Target (issues 8, 23): p95 under attack within 3x, 0 errors.
// Addresses: the innocent client connects from 127.0.0.1; the attacker's sockets bind to
// addresses of their own (127.0.0.2 ... 127.0.0.<1+ABUSE_ATTACKER_ADDRESSES>, default 4;
// Linux routes all of 127.0.0.0/8 on lo), as an attacker in the world never shares its
// victim's address. Its loops take the addresses in turn, so every per-address limit sees
// a few attackers, and the innocent is known to the server only by its token.
// Run: npm run bench:abuse   (PORT, BENCH_PG_PORT, ABUSE_SECONDS, ABUSE_RATE, ABUSE_PHASE_KINDS=a,b
// for the first attack phase instead of the second review's attacks, ABUSE_ONLY_FIRST_PHASE=1
// to stop after it, ABUSE_SLOW_LOG=<file> to append "<seconds into the phase> <ms>" for every innocent call over 100 ms:
// when the slow calls fall, a stall shows as calls that all end together)
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createDb } from '../lib/db/client';
import { serverCpuMs, startBenchApp } from './bench-app';
import { createApiToken } from '../lib/auth/api-tokens';
import { attackConnect, attackerAddresses, attackFetch } from './attacker-http';
import { packTarball } from '../lib/registry/package-tarball';
import type { Db } from '../lib/db/client';

const appPort = process.env.ABUSE_TARGET_PORT ?? process.env.PORT ?? '3212';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54339);
const seconds = Number(process.env.ABUSE_SECONDS ?? 20);
const innocentRate = Number(process.env.ABUSE_RATE ?? 8); // invokes per second
const pageRate = Number(process.env.ABUSE_PAGE_RATE ?? 0); // page views per second (0: none)
const base = `http://127.0.0.1:${appPort}`;
const addresses = attackerAddresses(Number(process.env.ABUSE_ATTACKER_ADDRESSES ?? 4));
const slowLog = process.env.ABUSE_SLOW_LOG;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1));
};

type Phase = {
  calls: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
  errors: number;
  errorCodes: Record<string, number>;
  /** of the successful calls: the time the tool took inside the server (the answer's `ms`: sandbox queue + run) */
  toolMs: { p50: number | null; p95: number | null };
};

/** Starts `once(startedAt)` every 1/rate s for `secs` (not waiting for the last), then waits for them all. */
async function paced(secs: number, rate: number, once: (startedAt: number) => Promise<void>): Promise<void> {
  const calls: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < secs * 1000; i++) {
    calls.push(once(start));
    const next = start + ((i + 1) * 1000) / rate;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  await Promise.all(calls);
}

/** The innocent client: one invoke every 1/rate s (not waiting for the last), for `seconds`. */
async function innocent(token: string, secs: number): Promise<Phase> {
  const ms: number[] = [];
  const toolMs: number[] = [];
  const errorCodes: Record<string, number> = {};
  let errors = 0;
  const body = JSON.stringify({ args: { text: 'One two three. Four five!' }, skill: '@skillyard/text-stats' });
  await paced(secs, innocentRate, async (startedAt) => {
    const t = performance.now();
    try {
      const res = await fetch(`${base}/api/v1/tools/count-words/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const json = (await res.json()) as { result?: { words?: number }; ms?: number; error?: { code: string } };
      if (typeof json.ms === 'number') toolMs.push(json.ms);
      if (res.status !== 200 || json.result?.words !== 5) {
        errors++;
        const code = json.error?.code ?? String(res.status);
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      }
    } catch (err) {
      errors++;
      const code = (err as Error).name;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    }
    ms.push(performance.now() - t);
    const took = performance.now() - t;
    if (slowLog && took > 100) fs.appendFileSync(slowLog, `${((t - startedAt) / 1000).toFixed(2)} ${took.toFixed(0)}\n`);
  });
  return { calls: ms.length, p50: pct(ms, 50), p95: pct(ms, 95), max: pct(ms, 100), errors, errorCodes, toolMs: { p50: pct(toolMs, 50), p95: pct(toolMs, 95) } };
}

/**
 * The innocent visitor: one page view every 1/rate s (ABUSE_PAGE_RATE, default 0: none) of a
 * skill's page, beside the API client: pages are what the page gate holds back under page
 * floods, so their cost to a visitor is measured too. A page that is not 200 is an error.
 */
async function visitor(secs: number): Promise<Omit<Phase, 'toolMs'>> {
  const ms: number[] = [];
  const errorCodes: Record<string, number> = {};
  await paced(secs, pageRate, async () => {
    const t = performance.now();
    let code = '200';
    try {
      const res = await fetch(`${base}/skills/skillyard/text-stats`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      code = String(res.status);
    } catch (err) {
      code = (err as Error).name;
    }
    if (code !== '200') errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    ms.push(performance.now() - t);
  });
  const errors = Object.values(errorCodes).reduce((a, b) => a + b, 0);
  return { calls: ms.length, p50: pct(ms, 50), p95: pct(ms, 95), max: pct(ms, 100), errors, errorCodes };
}

/** the API client and the page visitor together, for one phase */
async function innocents(token: string, secs: number): Promise<[Phase, Omit<Phase, 'toolMs'> | null]> {
  return Promise.all([innocent(token, secs), pageRate > 0 ? visitor(secs) : Promise.resolve(null)]);
}

const scope = process.env.ABUSE_SCOPE ?? 'none';
const SECOND_ROUND = ['multipart-parts', 'multipart-parts-fake-session', 'stalled-download', 'large-file-view', 'highlighted-file-view', 'many-tools-page', 'long-readme-page'];
const MB = 1024 * 1024;

/** A multipart body of `parts` empty fields (~50 bytes a part). */
function tinyParts(parts: number): { body: Buffer; contentType: string } {
  const part = Buffer.from('--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n');
  return { body: Buffer.concat([...Array.from({ length: parts }, () => part), Buffer.from('--B--\r\n')]), contentType: 'multipart/form-data; boundary=B' };
}
const floodParts = process.argv.includes('--attacker') ? tinyParts(400_000) : { body: Buffer.alloc(0), contentType: '' };

/** A POST on a connection of its own, answered as a Response (a cut connection is an error). */
function postRaw(path: string, body: Buffer, contentType: string, headers: Record<string, string> = {}, timeoutMs = 30_000, from = '127.0.0.1'): Promise<Response> {
  return attackFetch(`${base}${path}`, from, {
    method: 'POST',
    headers: { 'content-type': contentType, 'content-length': body.byteLength, ...headers },
    body,
    timeoutMs,
    ownConnection: true,
  });
}

/** A download that reads its status line, then stops reading for 10 s and goes away. */
function stalledDownload(path: string, from: string): Promise<Response> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = attackConnect(Number(port), from, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.once('data', (chunk) => {
      socket.pause();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0);
      setTimeout(() => (socket.destroy(), resolve(new Response(null, { status }))), 10_000);
    });
    socket.once('error', reject);
  });
}

/** The attacker: several kinds of abuse, each a bounded pool of loops, until `stop` is set. */
function attacker(): { stop: () => Promise<Record<string, Record<string, number>>> } {
  let stopped = false;
  const got: Record<string, Record<string, number>> = {};
  const count = (kind: string, what: string) => {
    got[kind] ??= {};
    got[kind][what] = (got[kind][what] ?? 0) + 1;
  };
  const attempt = async (kind: string, fn: (from: string) => Promise<Response>, from: string) => {
    try {
      const res = await fn(from);
      let code = String(res.status);
      if (res.headers.get('content-type')?.includes('json')) {
        const j = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
        if (j?.error?.code) code = `${res.status} ${j.error.code}`;
      } else await res.arrayBuffer().catch(() => {});
      count(kind, code);
    } catch (err) {
      count(kind, (err as Error).name);
    }
  };
  const json = (path: string, body: unknown) => (from: string) =>
    attackFetch(`${base}${path}`, from, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const run = (script: unknown[], extra: Record<string, unknown> = {}) =>
    json('/api/v1/runs', { skills: ['@skillyard/text-stats'], provider: 'scripted', script, task: 'x', ...extra });
  const catastrophic = [
    'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i, s: "x".repeat(64) });',
    'return new Array(2 ** 28).fill(0).flat().length;',
    'for (;;) {}',
    'let s = "x"; for (;;) s += s;',
  ];
  const chunks = function* (count: number, chunk: Uint8Array) {
    for (let i = 0; i < count; i++) yield chunk;
  };
  const kinds: Array<[string, number, (from: string) => Promise<Response>]> = [
    ['manual-runs', 4, json('/api/v1/runs', { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait forever' })],
    [
      'redos-glob',
      2,
      run(['return await ctx.invoke("count-words", { text: "a".repeat(50000) });'], {
        allowedTools: 'count-words(text=*a*a*a*a*a*a*a*a*a*a*a*a*b)',
      }),
    ],
    ['catastrophic-guest', 3, (from) => run([catastrophic[Math.floor(Math.random() * catastrophic.length)]!])(from)],
    [
      'huge-body-declared',
      2,
      (from) =>
        attackFetch(`${base}/api/v1/tools/count-words/invoke`, from, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': 400 * 1024 * 1024 },
          body: chunks(64, new Uint8Array(64 * 1024)),
          ownConnection: true,
        }),
    ],
    [
      'huge-body-streamed',
      2,
      // 25 MB if read whole
      (from) =>
        attackFetch(`${base}/api/v1/runs`, from, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunks(400, new Uint8Array(64 * 1024).fill(0x20)) }),
    ],
    [
      'deep-json',
      2,
      (from) =>
        attackFetch(`${base}/api/v1/runs`, from, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"task":${'['.repeat(5000)}${']'.repeat(5000)}}` }),
    ],
    ['parallel-invokes', 300, json('/api/v1/tools/count-words/invoke', { args: { text: 'flood flood flood' } })],
    // issue 23: what the second review found (the scope of its packages comes from the main process)
    ['multipart-parts', 2, (from) => postRaw('/', floodParts.body, floodParts.contentType, {}, 30_000, from)],
    [
      'multipart-parts-fake-session',
      1,
      (from) => postRaw('/publish', floodParts.body, floodParts.contentType, { cookie: `authjs.session-token=${crypto.randomUUID()}` }, 30_000, from),
    ],
    ['stalled-download', 6, (from) => stalledDownload(`/api/v1/skills/${scope}/big/1.0.0/tarball`, from)],
    ['large-file-view', 4, (from) => attackFetch(`${base}/skills/${scope}/big?file=data%2Fbig.txt`, from)],
    ['highlighted-file-view', 2, (from) => attackFetch(`${base}/skills/${scope}/big?file=src%2Ftool.ts`, from)],
    ['many-tools-page', 2, (from) => attackFetch(`${base}/skills/${scope}/crowded`, from)],
    ['long-readme-page', 2, (from) => attackFetch(`${base}/skills/${scope}/long-readme`, from)],
  ];
  // ABUSE_KINDS=issue-23: only the second review's attacks (their own phase in the figures)
  // ABUSE_KINDS=a,b: only those kinds (to find which attack costs the innocent client most)
  const kindsEnv = process.env.ABUSE_KINDS ?? 'all';
  const only = kindsEnv === 'issue-23' ? new Set(SECOND_ROUND) : kindsEnv === 'all' ? null : new Set(kindsEnv.split(','));
  // the loops take the attacker's addresses in turn (each kind spread over all of them)
  let next = 0;
  const loops = kinds
    .filter(([kind]) => !only || only.has(kind))
    .flatMap(([kind, width, fn]) =>
      Array.from({ length: width }, async () => {
        const from = addresses[next++ % addresses.length]!;
        while (!stopped) await attempt(kind, fn, from);
      }),
    );
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return got;
    },
  };
}

// `--attacker`: this process is the attacker only (the main process spawns it, so the
// attacker's hundreds of requests never share the innocent client's event loop, as they
// would not share a machine); it attacks until its stdin closes and prints what it got.
if (process.argv.includes('--attacker')) {
  const attack = attacker();
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  const got = await attack.stop();
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ got, cpuMs: Math.round((cpu.user + cpu.system) / 1000) }));
  process.exit(0);
}

/** `bytes` of ordinary TypeScript (typed functions, template strings, comments) */
function tsSource(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) {
    out += `// step ${i}: joins its inputs\nexport function step${i}(a: number, b: string, c?: { d: boolean }): string {\n  const e = c?.d ? \`\${a}:\${b}\` : b.repeat(${i % 3});\n  return e.length > ${i} ? e.slice(0, ${i}) : e + '${i}';\n}\n`;
  }
  return out.slice(0, bytes);
}

/** The packages the second-round attacks use, in a scope of their own (ABUSE_SCOPE for the attacker). */
async function publishAttackPackages(db: Db): Promise<void> {
  const name = `abuser-${Date.now().toString(36)}`;
  const owner = await db.user.create({ data: { handle: name, name } });
  await db.scope.create({ data: { name, kind: 'user', userId: owner.id } });
  const { token } = await createApiToken(db, { userId: owner.id, name: 'publish', scopes: ['publish'] });
  const enc = new TextEncoder();
  const skillMd = (n: string) => enc.encode(`---\nname: ${n}\ndescription: For the abuse bench.\nversion: 1.0.0\n---\n\nHi.\n`);
  const publish = (n: string, files: Array<{ path: string; content: Uint8Array }>) =>
    postRaw(`/api/v1/skills?filename=${n}.tgz`, Buffer.from(packTarball(files, n)), 'application/gzip', { authorization: `Bearer ${token}` }, 600_000);
  // 24 MB of hardly compressible text: an 18 MB tarball, and a 24 MB file to view
  const big = await publish('big', [
    { path: 'SKILL.md', content: skillMd('big') },
    { path: 'data/big.txt', content: enc.encode(crypto.randomBytes(18 * MB).toString('base64')) },
    // TypeScript as large as a file is still highlighted (MAX_HIGHLIGHT_CHARS, 16 KB: a 700 KB page)
    { path: 'src/tool.ts', content: enc.encode(tsSource(16 * 1024)) },
  ]);
  // a readme as long as one may be (256 KB of ordinary markdown), rendered on each view of its page
  let readme = '';
  for (let i = 0; readme.length < 255 * 1024; i++)
    readme += `## Section ${i}\n\nSome *emphasis* and **strong** text with a [link](https://example.com/${i}) and \`code\`.\n\n- item\n  - nested ${i}\n\n`;
  const long = await publish('long-readme', [
    { path: 'SKILL.md', content: enc.encode(`---\nname: long-readme\ndescription: For the abuse bench.\nversion: 1.0.0\n---\n\n${readme}`) },
  ]);
  if (long.status !== 201) throw new Error(`publishing the long readme failed (${long.status}: ${await long.text()})`);
  const tools = enc.encode(JSON.stringify([{ name: 'tool_0', description: 'One of many.' }]));
  const crowded = await publish('crowded', [
    { path: 'SKILL.md', content: skillMd('crowded') },
    { path: 'tools.json', content: tools },
  ]);
  if (big.status !== 201 || crowded.status !== 201) throw new Error(`publishing the attack packages failed (${big.status}, ${crowded.status})`);
  // 13,000 tools, as a version stored before the per-skill limit holds them
  await db.$executeRaw`
    UPDATE "SkillVersion" v SET manifest = jsonb_set(v.manifest::jsonb, '{tools}',
      (SELECT jsonb_agg(jsonb_set(v.manifest::jsonb #> '{tools,0}', '{name}', to_jsonb('tool-' || i))) FROM generate_series(1, 13000) i))
    FROM "Skill" s WHERE s.id = v."skillId" AND s."scopeName" = ${name} AND s.name = 'crowded'`;
  process.env.ABUSE_SCOPE = name;
}

/** The attacker in a process of its own. */
function attackerProcess(kinds: string = 'all'): { stop: () => Promise<{ got: Record<string, Record<string, number>>; cpuMs: number }> } {
  if (process.env.ABUSE_IS_ATTACKER) throw new Error('the attacker process must not start another');
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--attacker'], {
    env: { ...process.env, ABUSE_TARGET_PORT: appPort, ABUSE_IS_ATTACKER: '1', ABUSE_KINDS: kinds },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stop: async () => {
      child.stdin!.end();
      await exited;
      return JSON.parse(out || '{"got":{},"cpuMs":0}') as { got: Record<string, Record<string, number>>; cpuMs: number };
    },
  };
}

// ABUSE_CPU_PROF=<dir>: the server's processes write V8 CPU profiles there when they stop
const env: Record<string, string> = { SKILLYARD_LOG_LEVEL: 'error' };
if (process.env.ABUSE_CPU_PROF) env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${process.env.ABUSE_CPU_PROF}`.trim();
// the server's log (errors only) goes to a file, for a look at what the attack caused
const serverLog = process.env.ABUSE_SERVER_LOG ?? '.data/bench-abuse-server.log';
fs.mkdirSync('.data', { recursive: true });
const logFd = fs.openSync(serverLog, 'w');
const { url, stop, pgid } = await startBenchApp({ name: 'abuse', pgPort, appPort, env, stdio: ['ignore', logFd, logFd], settleMs: 1000 });

try {
  const db = createDb(url);
  const user = await db.user.create({ data: { name: 'innocent' } });
  const { token } = await createApiToken(db, { userId: user.id, name: 'innocent', scopes: ['invoke'] });
  await publishAttackPackages(db);

  await innocent(token, 3); // warm up
  // the web process's CPU time in each phase, and the attacker's (on this machine the attacker
  // shares the cores: a figure of its own, as the latencies include its cost)
  const cpu0 = serverCpuMs(pgid);
  const [alone, pageAlone] = await innocents(token, seconds);
  const cpu1 = serverCpuMs(pgid);
  // the second review's attacks alone (or ABUSE_PHASE_KINDS=a,b), then every attack together
  const second = attackerProcess(process.env.ABUSE_PHASE_KINDS ?? 'issue-23');
  await new Promise((r) => setTimeout(r, 2000));
  const cpu2 = serverCpuMs(pgid);
  const [underIssue23Attacks, pageUnderIssue23Attacks] = await innocents(token, seconds);
  const cpu3 = serverCpuMs(pgid);
  const { got: issue23AttackerGot, cpuMs: issue23AttackerCpuMs } = await second.stop();
  // ABUSE_ONLY_FIRST_PHASE=1: stop after the first attack phase (to profile or time one attack)
  const skipAll = process.env.ABUSE_ONLY_FIRST_PHASE === '1';
  await new Promise((r) => setTimeout(r, 5000)); // let the server settle between phases
  const attack = skipAll ? null : attackerProcess();
  if (attack) await new Promise((r) => setTimeout(r, 2000)); // let the flood build up
  const cpu4 = serverCpuMs(pgid);
  const [underAttack, pageUnderAttack] = attack ? await innocents(token, seconds) : [null, null];
  const cpu5 = serverCpuMs(pgid);
  const { got: attackerGot, cpuMs: attackerCpuMs } = attack ? await attack.stop() : { got: {}, cpuMs: 0 };
  const healthy = await fetch(`${base}/api/health`).then(
    (r) => r.status,
    () => 0,
  );
  const runs = await db.run.groupBy({ by: ['status'], _count: true });
  await db.$disconnect();
  const ratio = alone.p95 && underAttack?.p95 ? Number((underAttack.p95 / alone.p95).toFixed(2)) : null;
  const issue23Ratio = alone.p95 && underIssue23Attacks.p95 ? Number((underIssue23Attacks.p95 / alone.p95).toFixed(2)) : null;
  console.log(
    JSON.stringify(
      {
        benchmark: 'abuse',
        node: process.version,
        secondsPerPhase: seconds,
        innocentInvokesPerSecond: innocentRate,
        innocent: { alone, underIssue23Attacks, underAttack },
        // a visitor's views of a skill page (ABUSE_PAGE_RATE a second) in the same phases
        innocentPages: { alone: pageAlone, underIssue23Attacks: pageUnderIssue23Attacks, underAttack: pageUnderAttack },
        p95Ratio: ratio,
        issue23P95Ratio: issue23Ratio,
        targets: {
          p95Within3x: ratio !== null && ratio <= 3,
          zeroErrors: underAttack !== null && underAttack.errors === 0 && alone.errors === 0,
          issue23P95Within3x: issue23Ratio !== null && issue23Ratio <= 3,
          issue23ZeroErrors: underIssue23Attacks.errors === 0,
        },
        // CPU seconds in each phase: the web process, and the attacker process (all of its run)
        cpuSeconds: {
          server: { alone: (cpu1 - cpu0) / 1000, underIssue23Attacks: (cpu3 - cpu2) / 1000, underAttack: attack ? (cpu5 - cpu4) / 1000 : null },
          attacker: { issue23: issue23AttackerCpuMs / 1000, all: attack ? attackerCpuMs / 1000 : null },
        },
        issue23AttackerGot,
        attackerGot,
        runsByStatus: Object.fromEntries(runs.map((r) => [r.status, r._count])),
        healthAfter: healthy,
        serverLog,
      },
      null,
      2,
    ),
  );
} finally {
  await stop();
}
