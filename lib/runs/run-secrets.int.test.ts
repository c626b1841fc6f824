// Issue 10 "nothing of a token or key ever reaches a trace, a log or the browser", on the
// real worker, sandbox and Postgres: a team skill whose tools return and throw the caller's
// OAuth bearer token and the team's secret. The stored events, the SSE stream, the run's
// result and error, and the server log hold "[redacted]", never the values.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import { sealSecret } from '../auth/secret-box';
import { invokeRegistryTool } from '../server/invoke-registry-tool';
import { publishVersion } from '../registry/publish-version';
import type { ServerContext } from '../server';
import { readSkillsFromFiles, type SkillManifest } from '../skills';
import { createRun } from './create-run';
import { listRunEvents } from './list-run-events';
import { openRunEventLog } from './run-event-log';
import { createSecretScrubber } from '../log';
import { streamRunEvents } from './stream-run-events';
import { startIsolatedRunWorker, type IsolatedRunWorker } from './testing/isolated-run-worker';
import { readSse } from './testing/read-sse';
import { newRunId } from './run-id';

const BEARER = `gho_${'A1b2C3d4'.repeat(5)}`;
const TEAM_SECRET = 'sk-team-5f1e0c2d9a7b';

const enc = new TextEncoder();
const TOOLS = [
  {
    name: 'echo_secrets',
    description: 'Returns its bearer token and the team secret (a careless tool).',
    capabilities: ['environment'],
    input_tokens: { '@oauth/test': { required: ['api:read'] } },
    input_schema: { type: 'object', properties: {} },
  },
  {
    name: 'throw_secret',
    description: 'Throws with its bearer token in the message.',
    input_tokens: { '@oauth/test': { required: ['api:read'] } },
    input_schema: { type: 'object', properties: {} },
  },
];
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'echo-secrets', version: '1.0.0', description: 'Echoes what it should keep.' }),
  'tools.json': JSON.stringify(TOOLS),
  'src/tools/echo_secrets.ts': `export default async function echo_secrets(_input, capabilities) {
  const token = capabilities.tokens.find((t) => t.issuer === '@oauth/test');
  const env = await capabilities.environment.get('API_KEY');
  return { header: 'Bearer ' + token.secret, env, query: '?t=' + encodeURIComponent(token.secret) };
}`,
  'src/tools/throw_secret.ts': `export default async function throw_secret(_input, capabilities) {
  throw new Error('upstream refused token ' + capabilities.tokens[0].secret);
}`,
};

let db: Db;
let server: ServerContext;
let env: IsolatedRunWorker;

beforeAll(async () => {
  env = await startIsolatedRunWorker();
  ({ db, server } = env);
});
afterAll(async () => {
  await env?.stop();
});

async function teamSkillAndMember() {
  const slug = `scrub${Date.now().toString(36)}`;
  const team = await db.team.create({ data: { slug, name: 'Scrub' } });
  await db.scope.create({ data: { name: slug, kind: 'team', teamId: team.id } });
  const user = await db.user.create({ data: { name: 'holder', handle: `h${slug}` } });
  await db.membership.create({ data: { teamId: team.id, userId: user.id, role: 'member' } });
  await db.teamSecret.create({ data: { teamId: team.id, name: 'API_KEY', value: sealSecret(TEAM_SECRET) } });
  await db.heldToken.create({ data: { userId: user.id, issuer: '@oauth/test', claims: ['api:read'], expiresAt: null, secret: sealSecret(BEARER) } });
  const files = Object.entries(FILES).map(([path, text]) => ({ path, content: enc.encode(text) }));
  const { skills } = readSkillsFromFiles(files.map((f) => ({ path: `echo-secrets/${f.path}`, content: f.content })));
  const manifest = skills[0] as SkillManifest;
  expect(manifest.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await publishVersion(db, { scope: slug, manifest, files, version: '1.0.0' });
  return { user, skill: `@${slug}/echo-secrets` };
}

const waitForEnd = (id: string) => env.waitForEnd(id);

describe('secrets handed to a run', () => {
  it('never reach its stored events, its event stream, its result or the server log', async () => {
    const { user, skill } = await teamSkillAndMember();
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => {
        written.push(String(chunk));
        return true;
      }) as never);
    const spies = [capture(process.stdout), capture(process.stderr)];
    let id = '';
    let run: Awaited<ReturnType<typeof waitForEnd>>;
    try {
      ({ id } = await createRun(db, {
        userId: user.id,
        config: {
          skills: [skill],
          provider: 'scripted',
          task: 'leak what you can',
          script: [
            { text: 'Echo.', code: `memory.r = await ctx.invoke('echo-secrets', {});\nconsole.log(JSON.stringify(memory.r));\nreturn memory.r;` },
            { text: 'Throw.', code: `return await ctx.invoke('throw-secret', {});` },
            { text: 'Done.', code: 'ctx.finish(memory.r);' },
          ],
        },
      }));
      run = await waitForEnd(id);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    const events = await listRunEvents(db, id, 0);
    const sse = await readSse(streamRunEvents(db, id, 0, new AbortController().signal));
    const everything = [JSON.stringify(events), sse.raw, JSON.stringify(run.result), JSON.stringify(run.error), written.join('')].join('\n');
    for (const secret of [BEARER, TEAM_SECRET, encodeURIComponent(BEARER)]) expect(everything).not.toContain(secret);

    // the tools did run and their output is there, redacted
    expect(run.status).toBe('succeeded');
    expect(run.result).toMatchObject({ header: 'Bearer [redacted]', env: '[redacted]', query: '?t=[redacted]' });
    const stored = JSON.stringify(events);
    expect(stored).toContain('Bearer [redacted]');
    expect(stored).toContain('upstream refused token [redacted]');
    expect(sse.raw).toContain('Bearer [redacted]');
    expect(sse.events.length).toBe(events.length);
  });

  it('the invoke API (and so the try form on the skill page) answers with them redacted as well', async () => {
    const { user, skill } = await teamSkillAndMember();
    const out = await invokeRegistryTool(server, { tool: 'echo-secrets', skill, args: {}, userId: user.id });
    expect(out.result).toEqual({ header: 'Bearer [redacted]', env: '[redacted]', query: '?t=[redacted]' });
    const thrown = await invokeRegistryTool(server, { tool: 'throw-secret', skill, args: {}, userId: user.id }).catch((e: Error) => e);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toContain('upstream refused token [redacted]');
    expect((thrown as Error).message).not.toContain(BEARER);
  });

  it('the event log redacts what its scrubber knows before storing or streaming an event', async () => {
    const run = await db.run.create({ data: { id: newRunId(), config: {}, status: 'running', principal: 'anon:scrub' } });
    const reading = readSse(streamRunEvents(db, run.id, 0, new AbortController().signal));
    const scrubber = createSecretScrubber([BEARER]);
    const log = await openRunEventLog(db, run.id, { scrub: scrubber.scrub });
    log.append('tool-result', { tool: 'x', result: { auth: `Bearer ${BEARER}`, [BEARER]: 1 } });
    // a secret learned mid-run (an environment read) is redacted from then on
    scrubber.add(TEAM_SECRET);
    log.append('message', { text: `key ${TEAM_SECRET}` });
    // an event past the size cap is stored as a preview: cut after redaction, so no half token
    log.append('tool-result', { result: `${'y'.repeat(1975)}${BEARER}${'y'.repeat(300_000)}` });
    log.append('run-end', { status: 'succeeded' });
    await log.flush();
    const got = await reading;
    const stored = JSON.stringify(await listRunEvents(db, run.id, 0));
    for (const text of [stored, got.raw]) {
      expect(text).not.toContain(BEARER);
      expect(text).not.toContain(TEAM_SECRET);
      expect(text).toContain('Bearer [redacted]');
    }
    expect(got.events[1].data.text).toBe('key [redacted]');
    expect(got.events[2].data).toMatchObject({ truncated: true });
    expect(String(got.events[2].data.preview)).not.toContain(BEARER.slice(0, 10));
  });
});
