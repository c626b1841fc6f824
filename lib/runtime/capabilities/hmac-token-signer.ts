// The `token` capability's signer: compact HS256 JWTs (jose), one key per skill derived
// from a master key, so a token signed by one skill never verifies in another. The skill
// is its full `@scope/name` (skill-key.ts) and is also a claim, checked on verify. A
// registry skill's key also takes the stored skill's id (`skillIdentity`): the same name
// published again after its scope was deleted and taken by someone else gets a new key.

import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { TokenSigner } from './types';

export type HmacTokenSignerOptions = { now?: () => Date };

export function createHmacTokenSigner(masterKey: string | Buffer = randomBytes(32), opts: HmacTokenSignerOptions = {}): TokenSigner {
  const keys = new Map<string, Uint8Array>();
  const keyFor = (scope: { skill: string; skillIdentity?: string }) => {
    const name = scope.skillIdentity ? `skill:${scope.skill}#${scope.skillIdentity}` : `skill:${scope.skill}`;
    let key = keys.get(name);
    if (!key) {
      key = new Uint8Array(createHmac('sha256', masterKey).update(name).digest());
      if (keys.size >= 1000) keys.delete(keys.keys().next().value as string);
      keys.set(name, key);
    }
    return key;
  };
  const now = () => opts.now?.() ?? new Date();
  return {
    async sign(scope, payload, signOpts) {
      const jwt = new SignJWT({ payload: payload ?? null, skill: scope.skill }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
      if (signOpts.expiresInSeconds) jwt.setExpirationTime(Math.floor(now().getTime() / 1000) + signOpts.expiresInSeconds);
      return jwt.sign(keyFor(scope));
    },
    async verify(scope, token) {
      try {
        const { payload } = await jwtVerify(token, keyFor(scope), { algorithms: ['HS256'], currentDate: now() });
        if (payload.skill !== scope.skill) return { valid: false, reason: 'bad signature' };
        return { valid: true, payload: payload.payload ?? null };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) return { valid: false, reason: 'expired' };
        if (err instanceof joseErrors.JWSSignatureVerificationFailed) return { valid: false, reason: 'bad signature' };
        return { valid: false, reason: 'malformed' };
      }
    },
  };
}
