// Issue 23 items 1, 3, 6 and 7 against the real production server with default settings:
// the cost of a request is bounded before anyone is known, and a bound on requests in
// progress lasts as long as the response does. Each attack is one the second review ran;
// each test asserts what it threatened (the server keeps answering, its memory stays
// bounded, a caller's requests in progress stay bounded), not one status code.
// The server's first start builds the app (minutes); SKILLYARD_TEST_APP_PORT picks its port.
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { createApiToken } from '../lib/auth/api-tokens';
import { packTarball } from '../lib/registry/package-tarball';
import { startProductionServer, type ProductionServer } from './production-server';

// attacks on a shared 2-core machine: old code took minutes for some (a failure all the same)
vi.setConfig({ testTimeout: 240_000 });

let server: ProductionServer;
let db: Db;
let handle: string;
let sessionToken: string;
let publishToken: string;
let tarballIntegrity: string;

const MB = 1024 * 1024;
const enc = new TextEncoder();
const skillMd = (name: string, description: string) => enc.encode(`---\nname: ${name}\ndescription: ${description}\nversion: 1.0.0\n---\n\nA skill for the abuse tests.\n`);

/** `bytes` of ordinary TypeScript */
function typescript(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `// step ${i}\nexport function step${i}(a: number, b: string): string {\n  return \`\${a}:\${b}\` + '${i}';\n}\n`;
  return out.slice(0, bytes);
}

/** Publishes through the API on a connection of its own (a kept-alive one the server is closing would cut the upload). */
async function publish(name: string, files: Array<{ path: string; content: Uint8Array }>, dryRun = false): Promise<{ status: number; json: () => unknown }> {
  const body = Buffer.from(packTarball(files, name));
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.base}/api/v1/skills?filename=${name}.tgz${dryRun ? '&dryRun=1' : ''}`,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${publishToken}`, 'content-type': 'application/gzip', 'content-length': body.byteLength } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * While `attack` runs: the server's peak memory over its memory before, and how many
 * health checks went unanswered for 10 s (the review saw 6-14 s stalls; a shared machine under load answers health in seconds).
 */
async function during<T>(attack: () => Promise<T>): Promise<{ result: T; peakGrowthMb: number; unanswered: number; healthChecks: number }> {
  const before = server.rssBytes();
  let peak = before;
  let unanswered = 0;
  let healthChecks = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, server.rssBytes());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const health = (async () => {
    while (running) {
      healthChecks++;
      const t = performance.now();
      const outcome = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) =>
          r.arrayBuffer().then(
            () => (r.ok ? 'ok' : String(r.status)),
            (e: Error) => e.name,
          ),
        (e: Error) => `${e.name} ${String((e.cause as Error)?.message ?? '')}`,
      );
      if (outcome !== 'ok') {
        unanswered++;
        console.log(`[request-cost-bounds] health: ${outcome} after ${Math.round(performance.now() - t)} ms`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    const result = await attack();
    await new Promise((r) => setTimeout(r, 500));
    return { result, peakGrowthMb: Math.round((peak - before) / MB), unanswered, healthChecks };
  } finally {
    running = false;
    await Promise.all([sampler, health]);
  }
}

/** A multipart body of `parts` empty fields (the flood: ~50 bytes a part). */
function tinyParts(parts: number): { body: Buffer; contentType: string } {
  const part = Buffer.from('--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n');
  const body = Buffer.concat([...Array.from({ length: parts }, () => part), Buffer.from('--B--\r\n')]);
  return { body, contentType: 'multipart/form-data; boundary=B' };
}

/** POSTs `body` to a page on a connection of its own; whatever comes back (an answer, a reset connection) is the outcome. */
function postPage(path: string, body: Buffer, contentType: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(
      `${server.base}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': contentType, 'content-length': body.byteLength, ...headers }, timeout: 120_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve(String(res.statusCode)));
      },
    );
    // a refusal may arrive while the body is still being sent: the answer wins over the broken pipe
    req.on('error', (err) => setTimeout(() => resolve((err as NodeJS.ErrnoException).code ?? err.name), 200));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

/** A download that reads the status line and then nothing more (a client that stopped reading). */
function stalledDownload(path: string): Promise<{ status: number; socket: net.Socket }> {
  const { port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.once('data', (chunk) => {
      socket.pause();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0), socket });
    });
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  server = await startProductionServer();
  db = createDb(server.databaseUrl);
  handle = `abuse-${Date.now().toString(36)}`;
  const user = await db.user.create({ data: { handle, name: handle, email: `${handle}@example.test` } });
  await db.scope.create({ data: { name: handle, kind: 'user', userId: user.id } });
  sessionToken = crypto.randomUUID();
  await db.session.create({ data: { sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) } });
  publishToken = (await createApiToken(db, { userId: user.id, name: 'publish', scopes: ['publish'] })).token;
  // a package of 24 MB of hardly compressible text: an 18 MB tarball, and one 24 MB file to view
  const big = enc.encode(crypto.randomBytes(18 * MB).toString('base64'));
  const res = await publish('big', [
    { path: 'SKILL.md', content: skillMd('big', 'A large package.') },
    { path: 'data/big.txt', content: big },
    // TypeScript at the highlighting limit, and four times that (shown as plain text)
    { path: 'src/small.ts', content: enc.encode(typescript(16 * 1024)) },
    { path: 'src/large.ts', content: enc.encode(typescript(64 * 1024)) },
  ]);
  expect(res.status, JSON.stringify(res.json())).toBe(201);
  // a readme as long as one may be: 256 KB of ordinary markdown
  let readme = '';
  for (let i = 0; readme.length < 255 * 1024; i++) readme += `## Section ${i}\n\nSome *emphasis* and a [link](https://example.com/${i}).\n\n- item\n  - nested ${i}\n\n`;
  const long = await publish('long-readme', [{ path: 'SKILL.md', content: enc.encode(`---\nname: long-readme\ndescription: A long readme.\nversion: 1.0.0\n---\n\n${readme}`) }]);
  expect(long.status, JSON.stringify(long.json())).toBe(201);
  tarballIntegrity = (res.json() as { integrity: string }).integrity;
}, 1_200_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe('form posts to pages are bounded before Next.js reads them (issue 23 item 1)', () => {
  it('a flood of tiny parts, anonymous or with a made-up session cookie, neither stalls the server nor grows it', async () => {
    const flood = tinyParts(400_000); // 20 MB
    const fake = { cookie: `authjs.session-token=${crypto.randomUUID()}` };
    const { result, peakGrowthMb, unanswered } = await during(async () => [
      await postPage('/', flood.body, flood.contentType),
      await postPage('/publish', flood.body, flood.contentType, fake),
      await postPage('/publish', flood.body, flood.contentType, { ...fake, 'next-action': '7f'.padEnd(42, '0') }),
    ]);
    console.log(`[request-cost-bounds] parts flood: ${result.join(', ')}; peak growth ${peakGrowthMb} MB`);
    expect(result.every((r) => !r.startsWith('2'))).toBe(true);
    expect(unanswered).toBe(0);
    expect(peakGrowthMb).toBeLessThan(300);
  });

  it('a real session may send a large upload, but not hundreds of thousands of parts', async () => {
    const flood = tinyParts(400_000);
    const { result, peakGrowthMb, unanswered } = await during(() => postPage('/publish', flood.body, flood.contentType, { cookie: `authjs.session-token=${sessionToken}` }));
    console.log(`[request-cost-bounds] parts flood with a session: ${result}; peak growth ${peakGrowthMb} MB`);
    // cut off at the part bound while it was sent (413, or the connection closed under it),
    // never decoded whole by Next.js (which then answers 400: no action in it)
    expect(['413', 'ECONNRESET', 'EPIPE']).toContain(result);
    expect(unanswered).toBe(0);
    expect(peakGrowthMb).toBeLessThan(300);
  });

  it('a form within the bounds still reaches Next.js', async () => {
    const { body, contentType } = tinyParts(3);
    // no action in it: Next.js answers 400 itself (nothing at the door refused it)
    expect(await postPage('/', body, contentType)).toBe('400');
  });
});

describe('downloads stream from storage and count until their body is sent (issue 23 item 3)', () => {
  it('stalled downloads hold neither the packages in memory nor more than the per-caller cap of requests', async () => {
    const path = `/api/v1/skills/${handle}/big/1.0.0/tarball`;
    const {
      result: stalled,
      peakGrowthMb,
      unanswered,
    } = await during(async () => {
      const open = await Promise.all(Array.from({ length: 36 }, () => stalledDownload(path)));
      await new Promise((r) => setTimeout(r, 2_000)); // what the server buffers for them, it has by now
      return open;
    });
    const started = stalled.filter((s) => s.status === 200).length;
    console.log(`[request-cost-bounds] 36 stalled downloads: ${started} started; peak growth ${peakGrowthMb} MB; ${unanswered} health checks unanswered`);
    expect(unanswered).toBe(0);
    expect(peakGrowthMb).toBeLessThan(250); // 36 whole tarballs would be 650 MB
    // the started ones still count as in progress: one caller cannot start more than its cap
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(36);
    const more = await fetch(`${server.base}${path}`);
    await more.arrayBuffer().catch(() => {});
    expect(more.status).toBe(429);
    // once the client goes away, its downloads are released, and a download is whole
    for (const s of stalled) s.socket.destroy();
    let res: Response | null = null;
    for (let i = 0; i < 50 && res?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await fetch(`${server.base}${path}`);
      if (res.status !== 200) await res.arrayBuffer();
    }
    expect(res!.status).toBe(200);
    const bytes = Buffer.from(await res!.arrayBuffer());
    expect(`sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`).toBe(tarballIntegrity);
  });
});

describe('file views read only what they show, and page renders are bounded per caller (issue 23 item 6)', () => {
  it('views of a 24 MB file neither stall the server nor grow it, and show the start of the file', async () => {
    const url = `${server.base}/skills/${handle}/big?file=${encodeURIComponent('data/big.txt')}`;
    const { result, peakGrowthMb, unanswered } = await during(async () => {
      const pages: string[] = [];
      for (let round = 0; round < 3; round++) {
        pages.push(...(await Promise.all(Array.from({ length: 12 }, () => fetch(url).then((r) => (r.status === 200 ? r.text() : r.arrayBuffer().then(() => String(r.status))))))));
      }
      return pages;
    });
    const shown = result.filter((p) => p.includes('data-testid="file-source"'));
    console.log(`[request-cost-bounds] 36 views of a 24 MB file: ${shown.length} shown; peak growth ${peakGrowthMb} MB`);
    expect(unanswered).toBe(0);
    expect(peakGrowthMb).toBeLessThan(250);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown[0]).toContain('Only the start of this file is shown');
    expect(Math.max(...shown.map((p) => p.length))).toBeLessThan(2 * MB);
  });

  it('views of source files keep the server answering: a file within the limit is highlighted off the event loop, a larger one shown plain', async () => {
    const view = (file: string) =>
      fetch(`${server.base}/skills/${handle}/big?file=${encodeURIComponent(file)}`).then((r) => (r.status === 200 ? r.text() : r.arrayBuffer().then(() => String(r.status))));
    const { result, unanswered } = await during(async () => {
      const pages: string[] = [];
      for (let round = 0; round < 3; round++) pages.push(...(await Promise.all(Array.from({ length: 8 }, (_, i) => view(i % 2 ? 'src/large.ts' : 'src/small.ts')))));
      return pages;
    });
    const small = result.filter((p) => p.includes('data-testid="file-source" data-lang="typescript"') && p.includes('step0') && !p.includes('file-not-highlighted'));
    const large = result.filter((p) => p.includes('data-testid="file-not-highlighted"'));
    console.log(
      `[request-cost-bounds] 24 views of TypeScript files: ${small.length} highlighted, ${large.length} plain; largest page ${Math.max(...result.map((p) => p.length))} characters`,
    );
    expect(unanswered).toBe(0);
    expect(small.length).toBeGreaterThan(0);
    expect(small.every((p) => p.includes('class="shiki'))).toBe(true);
    expect(large.length).toBeGreaterThan(0);
    expect(large.every((p) => !p.includes('class="shiki'))).toBe(true);
    // highlighted, the 64 KB file was about 280 KB of HTML, sent twice (the page and its React payload)
    expect(Math.max(...large.map((p) => p.length))).toBeLessThan(400_000);
  });

  it('views of a skill with a 256 KB readme keep the server answering, and the readme is rendered', async () => {
    const { result, unanswered } = await during(async () => {
      const pages: string[] = [];
      for (let round = 0; round < 3; round++) {
        pages.push(
          ...(await Promise.all(
            Array.from({ length: 8 }, () =>
              fetch(`${server.base}/skills/${handle}/long-readme`).then((r) => (r.status === 200 ? r.text() : r.arrayBuffer().then(() => String(r.status)))),
            ),
          )),
        );
      }
      return pages;
    });
    const shown = result.filter((p) => p.includes('data-testid="instructions"'));
    console.log(
      `[request-cost-bounds] 24 views of a 256 KB readme: ${shown.length} shown, ${shown.filter((p) => p.includes('<h4 class="md-h2">Section 0</h4>')).length} rendered as markdown`,
    );
    expect(unanswered).toBe(0);
    expect(shown.length).toBeGreaterThan(0);
    // rendered (the thread's first render may outlast its time limit on a loaded machine: then plain text, never a stall)
    expect(shown.some((p) => p.includes('<h4 class="md-h2">Section 0</h4>') || p.includes('data-markdown="plain"'))).toBe(true);
  });

  it('one caller cannot have more than a few pages rendering at once', async () => {
    const statuses = await Promise.all(Array.from({ length: 48 }, () => fetch(`${server.base}/skills/${handle}/big`).then(async (r) => (await r.arrayBuffer(), r.status))));
    const counts = statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {});
    console.log(`[request-cost-bounds] 48 parallel page views: ${JSON.stringify(counts)}`);
    expect(Object.keys(counts).sort()).toEqual(['200', '429']);
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
  });
});

describe('tools per skill are bounded at publish and paged on the skill page (issue 23 item 7)', () => {
  const toolsJson = (n: number) => enc.encode(JSON.stringify(Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}.` }))));

  it('a publish of a skill with thousands of tools is refused with a diagnostic that names the limit', async () => {
    const res = await publish(
      'many',
      [
        { path: 'SKILL.md', content: skillMd('many', 'Too many tools.') },
        { path: 'tools.json', content: toolsJson(5_000) },
      ],
      true,
    );
    const body = res.json() as { diagnostics?: Array<{ code: string; message: string }> };
    const refusal = body.diagnostics?.find((d) => d.code === 'package/too-many-tools');
    expect(refusal?.message).toContain('maxTools');
  });

  it('a skill stored with 13,000 tools (before the limit) renders a bounded page, its tools in pages', async () => {
    const res = await publish('crowded', [
      { path: 'SKILL.md', content: skillMd('crowded', 'Crowded.') },
      { path: 'tools.json', content: toolsJson(3) },
    ]);
    expect(res.status, JSON.stringify(res.json())).toBe(201);
    // as a version published before the limit holds them
    await db.$executeRaw`
      UPDATE "SkillVersion" v SET manifest = jsonb_set(v.manifest::jsonb, '{tools}',
        (SELECT jsonb_agg(jsonb_set(v.manifest::jsonb #> '{tools,0}', '{name}', to_jsonb('tool-' || i))) FROM generate_series(1, 13000) i))
      FROM "Skill" s WHERE s.id = v."skillId" AND s."scopeName" = ${handle} AND s.name = 'crowded'`;
    // and its publish-time run saw all of them (none has a handler to run): one entry each
    await db.$executeRaw`
      INSERT INTO "VersionEvidence" ("versionId", status, evidence)
      SELECT v.id, 'done', jsonb_build_object('version', 1, 'ranAt', now(), 'durationMs', 1, 'flagged', 0,
        'limits', jsonb_build_object('wallMs', 1000, 'memoryMb', 64),
        'tools', (SELECT jsonb_agg(jsonb_build_object('tool', 'tool-' || i, 'handler', '', 'skipped', 'no handler', 'examples', '[]'::jsonb)) FROM generate_series(1, 13000) i))
      FROM "SkillVersion" v JOIN "Skill" s ON s.id = v."skillId" WHERE s."scopeName" = ${handle} AND s.name = 'crowded'
      ON CONFLICT ("versionId") DO UPDATE SET status = 'done', evidence = EXCLUDED.evidence`;
    const { result: page, unanswered } = await during(async () => (await fetch(`${server.base}/skills/${handle}/crowded`)).text());
    expect(unanswered).toBe(0);
    // all 13,000 made 25 MB; then the publish-time run's 13,000 "not run" lines 7 MB
    expect(page.length).toBeLessThan(MB / 2);
    const html = page.replace(/<!-- -->/g, '');
    expect(html).toContain('Not run (no handler): 13,000 tools');
    expect(html).toContain('and 12,988 more');
    expect(html).toContain('(13000)');
    expect(html).toContain('Tools 1–50 of 13000');
    const last = await (await fetch(`${server.base}/skills/${handle}/crowded?tools=260`)).text();
    expect(last).toContain('data-tool="tool-13000"');
    expect(last).not.toContain('data-tool="tool-1"');
  });
});

describe('page form posts are rate limited per caller (issue 23 item 1)', () => {
  it('a caller posting forms in a loop is refused before its posts reach Next.js, and others are still served', async () => {
    const { body, contentType } = tinyParts(1);
    const statuses: string[] = [];
    for (let i = 0; i < 160 && !statuses.includes('429'); i++) statuses.push(await postPage('/', body, contentType));
    expect(statuses).toContain('429');
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    // a signed-in user is its own caller
    const res = await fetch(`${server.base}/`, { headers: { cookie: `authjs.session-token=${sessionToken}` } });
    expect(res.status).toBe(200);
  });
});

/** The status of a POST whose headers alone are sent (the server answers before any body). */
function statusOfHeaders(path: string, headers: Record<string, string | number>): Promise<number> {
  const { port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`));
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0));
    });
    socket.once('error', reject);
  });
}

describe('made-up session cookies buy no unlimited uploads or look-ups (issue 23 item 1)', () => {
  it('uploads refused for a made-up session count against the address, which is then refused at once', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200 && !statuses.includes(429); i++) {
      statuses.push(
        await statusOfHeaders('/publish', {
          'content-type': 'multipart/form-data; boundary=B',
          'content-length': 2 * MB,
          cookie: `authjs.session-token=${crypto.randomUUID()}`,
        }),
      );
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    // a signed-in user behind the same address is still served
    const res = await fetch(`${server.base}/`, { headers: { cookie: `authjs.session-token=${sessionToken}` } });
    expect(res.status).toBe(200);
  });
});

describe('teams are charged to who makes them (issue 23 item 5)', () => {
  const initialize = (token: string) =>
    fetch(`${server.base}/api/mcp/skillyard/text-stats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    }).then(async (r) => (await r.arrayBuffer(), r.status));

  it("one account's teams and team tokens cannot fill the server's MCP sessions: everybody else still gets one", async () => {
    const { createTeamApiToken } = await import('../lib/teams');
    const person = async (name: string) => {
      const h = `${name}-${Date.now().toString(36)}`;
      const u = await db.user.create({ data: { handle: h, name: h } });
      await db.scope.create({ data: { name: h, kind: 'user', userId: u.id } });
      return { id: u.id, handle: h };
    };
    const mallory = await person('mallory');
    const own = (await createApiToken(db, { userId: mallory.id, name: 'teams', scopes: ['teams', 'invoke'] })).token;
    // teams over the API until the per-account cap (default 10) refuses one
    const statuses: number[] = [];
    for (const letter of 'abcdefghjkmn') {
      const res = await fetch(`${server.base}/api/v1/teams`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${own}` },
        body: JSON.stringify({ slug: `${mallory.handle}-${letter}` }),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s >= 400 && s < 500)).toBe(true);
    const teams = await db.team.findMany({ where: { createdById: mallory.id }, select: { slug: true } });
    expect(teams).toHaveLength(10);
    // a team token per team, each opening sessions as fast as it may
    const actor = { principal: { kind: 'user' as const, userId: mallory.id }, ip: '127.0.0.1' };
    const tokens = await Promise.all(teams.map(async (t) => (await createTeamApiToken(db, actor, t.slug, { name: 'mcp', scopes: ['invoke'] })).token));
    const opened: number[] = [];
    for (const token of [own, ...tokens]) for (let i = 0; i < 4; i++) opened.push(await initialize(token));
    expect(opened.filter((s) => s === 200).length).toBeGreaterThan(0);
    // 44 initializations: the account holds its share (SKILLYARD_MCP_MAX_SESSIONS_PER_PRINCIPAL, default 20), never more
    expect(await db.mcpSession.count()).toBeLessThanOrEqual(20);
    const innocent = await person('innocent');
    const theirs = (await createApiToken(db, { userId: innocent.id, name: 'mcp', scopes: ['invoke'] })).token;
    expect(await initialize(theirs)).toBe(200);
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
  });
});
