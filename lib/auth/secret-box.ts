// Encryption at rest for token secrets and team secrets: AES-256-GCM with a key from
// SKILLYARD_SECRET_KEY (32 bytes, base64 or hex), or a key generated once per data
// folder for the embedded default (.data/secret-key, mode 600).
import 'server-only';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setting } from '../config';

let cachedKey: Buffer | null = null;

function loadKey(): Buffer {
  if (cachedKey) return cachedKey;
  const configured = setting('SKILLYARD_SECRET_KEY');
  if (configured) {
    cachedKey = configured;
    return configured;
  }
  const dir = setting('SKILLYARD_DATA_DIR') ?? path.join(/* turbopackIgnore: true */ setting('SKILLYARD_ROOT') ?? process.cwd(), '.data');
  const file = path.join(dir, 'secret-key');
  try {
    cachedKey = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(dir, { recursive: true });
    const key = crypto.randomBytes(32);
    try {
      fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
      cachedKey = key;
    } catch {
      // another process created it first
      cachedKey = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    }
  }
  return cachedKey;
}

export function sealSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', loadKey(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

export function openSecret(sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('not a sealed secret');
  const decipher = crypto.createDecipheriv('aes-256-gcm', loadKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Only for tests: forget the cached key. */
export function resetSecretKeyForTests(): void {
  cachedKey = null;
}

/** A sub-key for one purpose (HMAC of the master key), so purposes never share keys. */
export function deriveKey(purpose: string): Buffer {
  return crypto.createHmac('sha256', loadKey()).update(`skillyard:${purpose}`).digest();
}
