// In-memory TokenVault for the CLI and tests: records minted tokens (the server's is pg-token-vault.ts).

import { randomBytes, randomUUID } from 'node:crypto';
import type { HeldToken } from '../types';
import type { MintRequest, TokenVault } from './types';

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
