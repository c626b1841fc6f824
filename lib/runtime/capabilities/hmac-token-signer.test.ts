import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createHmacTokenSigner } from './hmac-token-signer';
import type { CapabilityScope } from './types';

const scope = (skill: string): CapabilityScope => ({ callerId: 'u1', callerKind: 'user', skill, tool: 't' });

describe('createHmacTokenSigner', () => {
  it('signs a standard HS256 JWT carrying the payload and the full skill name', async () => {
    const signer = createHmacTokenSigner('k');
    const token = await signer.sign(scope('@a/notes'), { sub: 'ada' }, {});
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decodeJwt(token)).toEqual({ payload: { sub: 'ada' }, skill: '@a/notes' });
    expect(await signer.verify(scope('@a/notes'), token)).toEqual({ valid: true, payload: { sub: 'ada' } });
  });

  it('refuses tokens of another skill, another master key, tampered or malformed ones', async () => {
    const signer = createHmacTokenSigner('k');
    const token = await signer.sign(scope('@a/notes'), 1, {});
    expect(await signer.verify(scope('@b/notes'), token)).toEqual({ valid: false, reason: 'bad signature' });
    expect(await createHmacTokenSigner('other').verify(scope('@a/notes'), token)).toEqual({ valid: false, reason: 'bad signature' });
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ payload: 2, skill: '@a/notes' })).toString('base64url')}.${sig}`;
    expect(await signer.verify(scope('@a/notes'), forged)).toEqual({ valid: false, reason: 'bad signature' });
    expect(await signer.verify(scope('@a/notes'), 'not-a-token')).toEqual({ valid: false, reason: 'malformed' });
  });

  it('refuses a token of the same name signed by another stored skill (a deleted scope taken over)', async () => {
    const signer = createHmacTokenSigner('k');
    const old = { ...scope('@gamma/vault'), skillIdentity: 'skill-of-carol' };
    const token = await signer.sign(old, { owner: 'carol' }, {});
    expect(await signer.verify(old, token)).toEqual({ valid: true, payload: { owner: 'carol' } });
    expect(await signer.verify({ ...scope('@gamma/vault'), skillIdentity: 'skill-of-bob' }, token)).toEqual({ valid: false, reason: 'bad signature' });
  });

  it('refuses alg=none tokens', async () => {
    const signer = createHmacTokenSigner('k');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"payload":1,"skill":"@a/notes"}').toString('base64url')}.`;
    expect((await signer.verify(scope('@a/notes'), none)).valid).toBe(false);
  });

  it('expires tokens at their expiry (clock injected, no waiting)', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const signer = createHmacTokenSigner('k', { now: () => now });
    const token = await signer.sign(scope('@a/notes'), 'x', { expiresInSeconds: 60 });
    expect(await signer.verify(scope('@a/notes'), token)).toEqual({ valid: true, payload: 'x' });
    now = new Date('2026-01-01T00:01:01Z');
    expect(await signer.verify(scope('@a/notes'), token)).toEqual({ valid: false, reason: 'expired' });
  });
});
