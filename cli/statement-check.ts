// The CLI's side of the registry's signed statements (docs/trust.md): the key set, fetched
// once per registry per command and kept in $SKILLYARD_HOME/trust/<host>.json (so `verify
// --offline` needs no network), each version's statement, and the check of both against
// the bytes that were downloaded. `add`, `install`, `update` and `verify` share it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isKeySet, verifyStatement, type KeySet, type VerifyResult } from '../lib/trust';
import { configDir, RegistryError, type RegistryClient } from './registry-client';

export const KEYS_PATH = '/.well-known/skillyard-keys.json';

/** Where the key set of a registry is cached. */
export function keyCachePath(base: string): string {
  const host = new URL(base).host.replace(/[^a-zA-Z0-9.-]+/g, '_');
  return path.join(configDir(), 'trust', `${host}.json`);
}

export function readCachedKeys(base: string): KeySet | null {
  const file = keyCachePath(base);
  if (!existsSync(file)) return null;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return isKeySet(data) ? data : null;
  } catch {
    return null;
  }
}

const fetched = new Map<string, Promise<KeySet | null>>();

/**
 * The registry's key set, fetched once per command run (null: the registry serves none, an
 * older registry). Saved for offline use.
 */
export function registryKeys(client: RegistryClient): Promise<KeySet | null> {
  let p = fetched.get(client.base);
  if (!p) {
    p = (async () => {
      let data: unknown;
      try {
        data = await client.json<unknown>(KEYS_PATH, { auth: false });
      } catch (e) {
        if (e instanceof RegistryError && e.status === 404) return null;
        throw e;
      }
      if (!isKeySet(data)) throw new RegistryError('statement/bad-key-set', `${client.base}${KEYS_PATH} is not a key set`, 200);
      const file = keyCachePath(client.base);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 2));
      renameSync(`${file}.tmp`, file);
      return data;
    })();
    fetched.set(client.base, p);
  }
  return p;
}

/** The statement (compact JWS) of an exact version; null when the registry serves none. */
export async function fetchStatement(client: RegistryClient, ref: { scope: string; name: string }, version: string): Promise<string | null> {
  try {
    const body = await client.json<{ jws?: unknown }>(`/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(version)}/statement`);
    return typeof body.jws === 'string' ? body.jws : null;
  } catch (e) {
    // an older registry has no such route (an HTML 404 without our error code)
    if (e instanceof RegistryError && e.code === 'http/404') return null;
    throw e;
  }
}

export type StatementCheck = { checked: false; reason: string } | ({ checked: true } & VerifyResult);

/** Checks the downloaded bytes of `@scope/name@version` against its signed statement. */
export async function checkStatement(client: RegistryClient, ref: { scope: string; name: string }, version: string, tarball: Uint8Array): Promise<StatementCheck> {
  const keys = await registryKeys(client);
  if (!keys) return { checked: false, reason: `${client.base} serves no signing keys (an older registry)` };
  const jws = await fetchStatement(client, ref, version);
  if (!jws) return { checked: false, reason: `${client.base} serves no statement for @${ref.scope}/${ref.name}@${version}` };
  return { checked: true, ...verifyStatement(jws, keys, { name: `@${ref.scope}/${ref.name}`, version, tarball }) };
}
