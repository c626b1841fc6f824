// In-memory TokenVault (records minted tokens) and TokenSigner (HMAC-SHA256, one key per skill).

import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { HeldToken } from '../types';
import type { MintRequest, TokenSigner, TokenVault } from './types';

export function createMemoryVault(): TokenVault & { minted: Array<HeldToken & { holderId: string }> } {
  const minted: Array<HeldToken & { holderId: string }> = [];
  return {
    minted,
    async mint(req: MintRequest) {
      const token: HeldToken = {
        id: randomUUID(),
        issuer: req.issuer,
        claims: [...req.claims],
        expiresAt: req.expiresAt,
        secret: randomBytes(24).toString('base64url'),
      };
      minted.push({ ...token, holderId: req.holderId });
      return token;
    },
  };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** `masterKey` is derived per skill, so a token signed by one skill does not verify in another. */
export function createMemorySigner(masterKey: string | Buffer = randomBytes(32)): TokenSigner {
  const keyFor = (skill: string) => createHmac('sha256', masterKey).update(`skill:${skill}`).digest();
  const mac = (skill: string, body: string) => createHmac('sha256', keyFor(skill)).update(body).digest('base64url');
  return {
    async sign(scope, payload, opts) {
      const exp = opts.expiresInSeconds ? Math.floor(Date.now() / 1000) + opts.expiresInSeconds : null;
      const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ payload, skill: scope.skill, ...(exp ? { exp } : {}) })}`;
      return `${body}.${mac(scope.skill, body)}`;
    },
    async verify(scope, token) {
      const parts = token.split('.');
      if (parts.length !== 3) return { valid: false, reason: 'malformed' };
      const expected = Buffer.from(mac(scope.skill, `${parts[0]}.${parts[1]}`));
      const given = Buffer.from(parts[2]);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { valid: false, reason: 'bad signature' };
      const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { payload: unknown; exp?: number };
      if (claims.exp && claims.exp * 1000 <= Date.now()) return { valid: false, reason: 'expired' };
      return { valid: true, payload: claims.payload };
    },
  };
}
