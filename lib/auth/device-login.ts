// `skillyard login` (device flow, as the GitHub CLI does): the CLI asks for a code, the
// person confirms it in a signed-in browser, the CLI polls and receives an API token
// once. Only the device code's SHA-256 is stored; the minted token is sealed until the
// CLI picks it up, then deleted.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { API_TOKEN_SCOPES } from './api-tokens';
import { issueApiToken } from './manage-api-tokens';
import { openSecret, sealSecret } from './secret-box';

export const DEVICE_LOGIN_TTL_MS = 10 * 60_000;
export const DEVICE_POLL_INTERVAL_S = 2;
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'; // no vowels (no words), no look-alikes
const hash = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

function userCode(): string {
  const bytes = crypto.randomBytes(8);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export function normalizeUserCode(raw: string): string | null {
  const s = raw.toUpperCase().replace(/[^A-Z]/g, '');
  if (s.length !== 8 || [...s].some((c) => !ALPHABET.includes(c))) return null;
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

export async function startDeviceLogin(db: Db, now = new Date()): Promise<{ deviceCode: string; userCode: string; expiresAt: Date }> {
  // expired attempts are of no use to anyone
  await db.deviceLogin.deleteMany({ where: { expiresAt: { lt: now } } });
  const deviceCode = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + DEVICE_LOGIN_TTL_MS);
  for (let attempt = 0; ; attempt++) {
    const code = userCode();
    try {
      await db.deviceLogin.create({ data: { deviceHash: hash(deviceCode), userCode: code, expiresAt } });
      return { deviceCode, userCode: code, expiresAt };
    } catch (err) {
      if ((err as { code?: string }).code !== 'P2002' || attempt >= 4) throw err;
    }
  }
}

async function pending(db: Db, raw: string) {
  const code = normalizeUserCode(raw);
  const row = code ? await db.deviceLogin.findUnique({ where: { userCode: code } }) : null;
  if (!row || row.expiresAt <= new Date()) throw new AppError('auth/device-code-not-found', 'That code is unknown or expired: run `skillyard login` again.');
  if (row.userId) throw new AppError('auth/device-code-used', 'That code was already used.');
  return row;
}

/** The signed-in user confirms the code shown by their CLI: a token with these scopes is minted for it. */
export async function approveDeviceLogin(db: Db, userId: string, rawCode: string, scopes: string[]): Promise<void> {
  const row = await pending(db, rawCode);
  const chosen = scopes.filter((s) => (API_TOKEN_SCOPES as readonly string[]).includes(s));
  const { token } = await issueApiToken(db, userId, { name: `CLI login ${new Date().toISOString().slice(0, 10)}`, scopes: chosen, expiresInDays: 90 });
  const { count } = await db.deviceLogin.updateMany({ where: { id: row.id, userId: null }, data: { userId, tokenSecret: sealSecret(token) } });
  if (count === 0) throw new AppError('auth/device-code-used', 'That code was already used.');
}

export async function denyDeviceLogin(db: Db, rawCode: string): Promise<void> {
  const row = await pending(db, rawCode);
  await db.deviceLogin.delete({ where: { id: row.id } });
}

export type DevicePoll = { status: 'pending' } | { status: 'approved'; token: string; handle: string | null };

/** The CLI's poll: pending, the token (exactly once), or an error for an unknown/expired/denied code. */
export async function pollDeviceLogin(db: Db, deviceCode: string): Promise<DevicePoll> {
  const row = await db.deviceLogin.findUnique({ where: { deviceHash: hash(deviceCode) }, include: { user: { select: { handle: true } } } });
  if (!row || row.expiresAt <= new Date()) {
    throw new AppError('auth/device-code-expired', 'The login was denied or has expired: run `skillyard login` again.');
  }
  if (!row.userId || !row.tokenSecret) return { status: 'pending' };
  // hand the token out once: whoever deletes the row first gets it
  const { count } = await db.deviceLogin.deleteMany({ where: { id: row.id } });
  if (count === 0) throw new AppError('auth/device-code-expired', 'The login was already completed.');
  return { status: 'approved', token: openSecret(row.tokenSecret), handle: row.user?.handle ?? null };
}
