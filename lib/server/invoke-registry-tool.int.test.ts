import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { sealSecret } from '../auth/secret-box';
import { forgetCachedSkillHeads, invokeRegistryTool } from './invoke-registry-tool';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { createServerContext, type ServerContext } from '.';

let userId: string;
let server: ServerContext;

beforeAll(async () => {
  server = createServerContext({ db: testDb() });
  await seedBundledSkills(testDb());
  const user = await testDb().user.create({ data: { name: 'Tokenholder' } });
  userId = user.id;
});
afterAll(async () => {
  await server.close();
});

describe('invoking registry tools', () => {
  it('runs a bundled tool in the sandbox through the whole pipeline', async () => {
    const out = await invokeRegistryTool(server, {
      tool: 'count-words',
      args: { text: 'One two three. Four five!' },
      userId: null,
    });
    expect(out.skill).toBe('@skillyard/text-stats');
    expect(out.result).toMatchObject({ words: 5, sentences: 2 });
  });

  it('answers a clear error for unknown tools and bad arguments, and keeps serving', async () => {
    await expect(invokeRegistryTool(server, { tool: 'no-such-tool', args: {}, userId: null })).rejects.toMatchObject({
      code: 'tool/not-found',
    });
    await expect(invokeRegistryTool(server, { tool: 'count-words', args: { text: 42 }, userId: null })).rejects.toMatchObject({
      code: 'params/invalid',
    });
    const again = await invokeRegistryTool(server, { tool: 'count-words', args: { text: 'still here' }, userId: null });
    expect(again.result).toMatchObject({ words: 2 });
  });

  it('refuses a token-gated tool to a caller without the token', async () => {
    await expect(invokeRegistryTool(server, { tool: 'list-my-repos', args: {}, userId: null })).rejects.toMatchObject({
      code: 'token/missing',
    });
    await expect(invokeRegistryTool(server, { tool: 'list-my-repos', args: {}, userId })).rejects.toMatchObject({
      code: 'token/missing',
    });
  });

  it('lets a caller holding the OAuth token past the gate', async () => {
    await testDb().heldToken.create({
      data: { userId, issuer: '@oauth/github', claims: ['account'], secret: sealSecret('gho_test'), expiresAt: null },
    });
    // past the gate the tool tries the network, which is unreachable here: any error now
    // comes from the handler or the net capability, never from the token gate
    const outcome = await invokeRegistryTool(server, { tool: 'list-my-repos', args: { limit: 1 }, userId }).then(
      (out) => ({ ok: true as const, out }),
      (err: { code?: string }) => ({ ok: false as const, code: err.code }),
    );
    expect(outcome.ok ? 'ok' : outcome.code).not.toMatch(/^token\//);
  });
});

describe('the hot path of an invoke', () => {
  it("reads the skill row once a second and a signed-in caller's held tokens only for a token-gated skill", async () => {
    const reads: string[] = [];
    const db = testDb();
    // counts the reads of the tables a call starts from
    const counted = new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'skill' && prop !== 'tool' && prop !== 'heldToken') return value;
        return new Proxy(value as object, {
          get(t, method, r) {
            const fn = Reflect.get(t, method, r);
            return typeof fn === 'function' ? (...args: unknown[]) => (reads.push(`${String(prop)}.${String(method)}`), fn.apply(t, args)) : fn;
          },
        });
      },
    });
    const hot = createServerContext({ db: counted });
    try {
      forgetCachedSkillHeads(60_000); // a loaded machine may take longer than the 1 s
      for (let i = 0; i < 5; i++) {
        const out = await invokeRegistryTool(hot, { tool: 'count-words', skill: '@skillyard/text-stats', args: { text: 'a b c' }, userId });
        expect(out.result).toMatchObject({ words: 3 });
      }
      expect(reads).toEqual(['skill.findUnique']);
      reads.length = 0;
      for (let i = 0; i < 3; i++) await invokeRegistryTool(hot, { tool: 'count-words', args: { text: 'a b' }, userId: null });
      expect(reads).toEqual(['tool.findMany']);
      reads.length = 0;
      await invokeRegistryTool(hot, { tool: 'list-my-repos', args: {}, userId }).catch(() => {});
      expect(reads).toContain('heldToken.findMany');
    } finally {
      forgetCachedSkillHeads();
      await hot.close();
    }
  });
});
