// Model provider API keys of the user's own: sealed at rest, shown back only as their last
// four characters, and used only for that user's runs (never the server's keys then).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { openSecret, sealSecret } from './secret-box';

export const MODEL_KEY_PROVIDERS = ['openai', 'anthropic'] as const;
export type ModelKeyProvider = (typeof MODEL_KEY_PROVIDERS)[number];

export type ModelKeyRow = { provider: string; last4: string; createdAt: Date };

export async function listModelKeys(db: Db, userId: string): Promise<ModelKeyRow[]> {
  return db.modelKey.findMany({ where: { userId }, orderBy: { provider: 'asc' }, select: { provider: true, last4: true, createdAt: true } });
}

export async function setModelKey(db: Db, userId: string, provider: string, key: string): Promise<ModelKeyRow> {
  if (!(MODEL_KEY_PROVIDERS as readonly string[]).includes(provider)) throw new AppError('input/invalid', `Unknown model provider "${provider}".`);
  const trimmed = key.trim();
  if (trimmed.length < 8 || trimmed.length > 400 || /\s/.test(trimmed)) throw new AppError('input/invalid', 'That does not look like an API key (8 to 400 characters, no spaces).');
  const last4 = trimmed.slice(-4);
  const row = await db.modelKey.upsert({
    where: { userId_provider: { userId, provider } },
    create: { userId, provider, secret: sealSecret(trimmed), last4 },
    update: { secret: sealSecret(trimmed), last4, createdAt: new Date() },
    select: { provider: true, last4: true, createdAt: true },
  });
  return row;
}

export async function deleteModelKey(db: Db, userId: string, provider: string): Promise<void> {
  await db.modelKey.deleteMany({ where: { userId, provider } });
}

/** The user's own key for a provider, opened, for their run only; null when they have none. */
export async function userModelKey(db: Db, userId: string | null, provider: string): Promise<string | null> {
  if (!userId) return null;
  const row = await db.modelKey.findUnique({ where: { userId_provider: { userId, provider } }, select: { secret: true } });
  return row ? openSecret(row.secret) : null;
}
