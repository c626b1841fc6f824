// Builds the kernel for one caller on the server: who they are, which tokens they hold,
// and the Postgres-backed capability providers.
import crypto from 'node:crypto';
import type { Db } from '../db/client';
import type { Caller } from '../runtime/types';
import type { CapabilityProviders } from '../runtime/capabilities/types';
import { createMemorySigner } from '../runtime/capabilities/memory-tokens';
import { deriveKey } from '../auth/secret-box';
import { refreshExpiredConnections } from '../auth/oauth-connections';
import { createPgStorage } from './capabilities/pg-storage';
import { createPgEnvironment } from './capabilities/pg-environment';
import { createPgTokenVault, loadHeldTokens } from './capabilities/pg-token-vault';

export async function callerFor(db: Db, userId: string | null): Promise<Caller> {
  if (!userId) {
    // an anonymous caller holds nothing and keeps nothing between calls
    return { id: `anonymous:${crypto.randomUUID()}`, kind: 'anonymous', tokens: [] };
  }
  const id = `user:${userId}`;
  // an expired OAuth connection is refreshed before the token gate looks at it
  await refreshExpiredConnections(db, userId);
  return { id, kind: 'user', tokens: await loadHeldTokens(db, id) };
}

export function serverProviders(db: Db): CapabilityProviders {
  return {
    storage: createPgStorage(db),
    vault: createPgTokenVault(db),
    environment: createPgEnvironment(db),
    signer: createMemorySigner(deriveKey('tool-token-signer')),
  };
}

export function subprocessAllowed(): boolean {
  return process.env.SKILLYARD_ALLOW_SUBPROCESS === '1';
}
