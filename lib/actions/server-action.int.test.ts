// The action chain on the real database, with Next's request APIs replaced by stand-ins
// (a request's headers and the session's user): origin first, then sign-in, input, rate
// limit, the operation, and one result shape for every failure.
import { redirect } from 'next/navigation';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { testDatabaseUrl } from '../../test/db';
import { AppError } from '../errors';

const request = { origin: 'http://127.0.0.1:3999', address: '198.51.100.90', user: null as null | { id: string; handle: string | null; name: null; email: null; image: null } };

vi.mock('next/headers', () => ({
  headers: async () => new Headers({ origin: request.origin, host: '127.0.0.1:3999', 'x-forwarded-for': request.address, 'x-request-id': 'req-chain-1' }),
}));
vi.mock('../session/current-user', () => ({ currentUser: async () => request.user }));

process.env.DATABASE_URL = testDatabaseUrl();
const { serverAction } = await import('./server-action');

const ran: unknown[] = [];
const echo = serverAction({ name: 'echo', input: z.object({ n: z.number().int() }) }, async (input, ctx) => {
  ran.push(input);
  return { n: input.n, signedIn: ctx.user !== null, principal: ctx.principal.kind, address: ctx.address };
});
const mine = serverAction({ name: 'mine', signedIn: { message: 'Sign in first.' } }, async (_: undefined, { user }) => ({ who: user.id }));
const toSignIn = serverAction({ name: 'to sign-in', signedIn: { redirectTo: '/signin' } }, async () => {});

beforeEach(() => {
  ran.length = 0;
  request.origin = 'http://127.0.0.1:3999';
  request.user = null;
});

describe('serverAction', () => {
  it('runs the operation and answers ok with its fields, for whoever is asking', async () => {
    expect(await echo({ n: 2 })).toEqual({ ok: true, error: null, n: 2, signedIn: false, principal: 'anonymous', address: '198.51.100.90' });
    request.user = { id: 'u-chain', handle: 'chain', name: null, email: null, image: null };
    expect(await mine()).toEqual({ ok: true, error: null, who: 'u-chain' });
  });

  it('refuses a request from another site before anything else, and runs nothing', async () => {
    request.origin = 'https://evil.example';
    expect(await echo({ n: 1 })).toMatchObject({ ok: false, code: 'auth/forbidden', error: 'This request did not come from this site.' });
    expect(ran).toEqual([]);
  });

  it('refuses a signed-out caller where the action needs a user: a message, or a redirect to sign in', async () => {
    expect(await mine()).toMatchObject({ ok: false, code: 'auth/unauthenticated', error: 'Sign in first.' });
    await expect(toSignIn()).rejects.toMatchObject({ digest: expect.stringContaining('/signin') });
  });

  it('refuses input the schema rejects, naming the field, and runs nothing', async () => {
    expect(await echo({ n: 'two' })).toMatchObject({ ok: false, code: 'input/invalid', field: 'n' });
    expect(ran).toEqual([]);
  });

  it('answers an expected failure with its message and an unexpected one with the request id only', async () => {
    const expected = serverAction({ name: 'expected' }, async () => {
      throw new AppError('skill/not-found', 'No skill @a/b.');
    });
    expect(await expected()).toEqual({ ok: false, error: 'No skill @a/b.', code: 'skill/not-found' });
    const unexpected = serverAction({ name: 'unexpected' }, async () => {
      throw new Error('connection string postgres://secret@db');
    });
    const state: { error: string | null } = await unexpected();
    expect(state).toMatchObject({ ok: false, code: 'internal' });
    expect(state.error).not.toContain('secret');
  });

  it("lets Next's redirect through", async () => {
    const go = serverAction({ name: 'go' }, async () => redirect('/somewhere'));
    await expect(go()).rejects.toMatchObject({ digest: expect.stringContaining('/somewhere') });
  });

  it("charges the API's rate limit of the caller, and refuses past it", async () => {
    process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = '3';
    request.address = `198.51.100.${Math.floor(Math.random() * 200) + 20}`;
    try {
      const costly = serverAction({ name: 'costly', rateCost: 2 }, async () => ({ done: true }));
      expect(await costly()).toMatchObject({ ok: true, done: true });
      expect(await costly()).toMatchObject({ ok: false, code: 'rate/limited' });
    } finally {
      delete process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS;
    }
  });
});
