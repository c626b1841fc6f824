// Issue 10 "a fork runs as the forker with the forker's own tokens, never the sharer's", on
// the real worker, sandbox and Postgres: a tool gated by a held token that only the sharer
// holds works in the sharer's run; the same configuration forked by another user, or by
// an anonymous visitor with the share link, runs as them and the tool is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { sealSecret } from '../auth/secret-box';
import { publishVersion } from '../registry/publish-version';
import { readSkillsFromFiles, type SkillManifest } from '../skills';
import { createRun } from './create-run';
import { forkRun } from './fork-run';
import { listRunEvents } from './list-run-events';
import { startIsolatedRunWorker, type IsolatedRunWorker } from './testing/isolated-run-worker';

const SHARER_SECRET = `gho_${'S3cr3tOfTheSharer'.repeat(3)}Zq9X`;
const FORKER_SECRET = `gho_${'F0rk3rsOwnT0ken'.repeat(3)}Wv7K`;
// without a token of their own the gated tool is locked for the forker's agent, and it says what unlocks it
const REFUSED = /^token\/missing: tool "whose-token" is locked: it needs @oauth\/test \(api:read\); to unlock it: connect Test/;
const enc = new TextEncoder();
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'held-token', version: '1.0.0', description: 'Says which token it was handed.' }),
  'tools.json': JSON.stringify([
    {
      name: 'whose_token',
      description: 'Answers with the length and the last four characters of the @oauth/test token it gets.',
      input_tokens: { '@oauth/test': { required: ['api:read'] } },
      input_schema: { type: 'object', properties: {} },
    },
  ]),
  'src/tools/whose_token.ts': `export default async function whose_token(_input, capabilities) {
  const token = capabilities.tokens.find((t) => t.issuer === '@oauth/test');
  return { issuer: token.issuer, last4: token.secret.slice(-4), length: token.secret.length };
}`,
};

const SCRIPT = [
  {
    text: 'Call the gated tool.',
    code: `try { memory.r = { ok: await ctx.invoke('whose-token', {}) }; } catch (e) { memory.r = { refused: String(e && e.code) + ': ' + String(e && e.message) }; }\nctx.finish(memory.r);`,
  },
];

let db: Db;
let env: IsolatedRunWorker;

beforeAll(async () => {
  env = await startIsolatedRunWorker();
  ({ db } = env);
});
afterAll(async () => {
  await env?.stop();
});

const waitForEnd = (id: string) => env.waitForEnd(id);

describe('a fork', () => {
  it("runs as the forker with the forker's tokens: the sharer's token never reaches it", async () => {
    const stamp = Date.now().toString(36);
    const sharer = await db.user.create({ data: { handle: `sharer-${stamp}` } });
    await db.scope.create({ data: { name: sharer.handle!, kind: 'user', userId: sharer.id } });
    const forker = await db.user.create({ data: { handle: `forker-${stamp}` } });
    // only the sharer holds the token the tool needs
    await db.heldToken.create({ data: { userId: sharer.id, issuer: '@oauth/test', claims: ['api:read'], expiresAt: null, secret: sealSecret(SHARER_SECRET) } });
    const files = Object.entries(FILES).map(([path, text]) => ({ path, content: enc.encode(text) }));
    const { skills } = readSkillsFromFiles(files.map((f) => ({ path: `held-token/${f.path}`, content: f.content })));
    const manifest = skills[0] as SkillManifest;
    expect(manifest.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    await publishVersion(db, { scope: sharer.handle!, manifest, files, version: '1.0.0' });
    const skill = `@${sharer.handle}/held-token`;

    // the sharer's own run: the tool gets the sharer's token
    const original = await createRun(db, { userId: sharer.id, config: { skills: [skill], provider: 'scripted', task: 'whose token?', script: SCRIPT, visibility: 'unlisted' } });
    const done = await waitForEnd(original.id);
    expect(done.status).toBe('succeeded');
    expect(done.result).toEqual({ ok: { issuer: '@oauth/test', last4: SHARER_SECRET.slice(-4), length: SHARER_SECRET.length } });

    // another user forks the shared (unlisted) run: it is theirs and the tool is refused
    const fork = await forkRun(db, original.id, { userId: forker.id, controlToken: null });
    const forked = await waitForEnd(fork.id);
    expect(forked.userId).toBe(forker.id);
    expect(forked.forkedFromId).toBe(original.id);
    expect(forked.result).toEqual({ refused: expect.stringMatching(REFUSED) });

    // so is an anonymous visitor with the share link
    const anonymousFork = await forkRun(db, original.id, { userId: null, controlToken: null }, {}, `anon:fork-${stamp}`);
    const anon = await waitForEnd(anonymousFork.id);
    expect(anon.userId).toBeNull();
    expect(anon.result).toEqual({ refused: expect.stringMatching(REFUSED) });

    // once the forker holds a token of their own, a fork gets that one
    await db.heldToken.create({ data: { userId: forker.id, issuer: '@oauth/test', claims: ['api:read'], expiresAt: null, secret: sealSecret(FORKER_SECRET) } });
    const ownFork = await forkRun(db, original.id, { userId: forker.id, controlToken: null });
    const own = await waitForEnd(ownFork.id);
    expect(own.result).toEqual({ ok: { issuer: '@oauth/test', last4: FORKER_SECRET.slice(-4), length: FORKER_SECRET.length } });

    // nothing of the sharer's token in any fork's trace
    for (const id of [fork.id, anonymousFork.id, ownFork.id]) {
      const events = JSON.stringify(await listRunEvents(db, id, 0));
      expect(events).not.toContain(SHARER_SECRET.slice(-4));
      expect(events).not.toContain(SHARER_SECRET);
    }
  });
});
