// Stores a new run and wakes a worker. The creator gets a control token (shown once)
// that lets them cancel it and, in manual mode, write its turns, even without an account.
import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { RunConfigSchema, type RunConfigInput } from './run-config';
import { runEventBus } from './run-event-bus';
import { parseSkillRef } from '../registry/load-skill-version';
import { AppError } from '../errors';
import { availableProviders } from './server-providers';

export const hashControlToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function createRun(
  db: Db,
  input: { config: RunConfigInput | Record<string, unknown>; userId: string | null; forkedFromId?: string | null },
): Promise<{ id: string; controlToken: string }> {
  const config = RunConfigSchema.parse(input.config);
  config.skills.forEach(parseSkillRef); // a clear error for a malformed ref before anything is stored
  if (!availableProviders().includes(config.provider)) {
    throw new AppError('input/provider-unavailable', `The ${config.provider} provider is not configured on this server.`);
  }
  if (config.visibility === 'private' && !input.userId) {
    throw new AppError('input/private-needs-account', 'Only signed-in users can make private runs.');
  }
  const controlToken = `syr_${crypto.randomBytes(24).toString('base64url')}`;
  const run = await db.run.create({
    data: {
      userId: input.userId,
      visibility: config.visibility,
      config: config as object,
      forkedFromId: input.forkedFromId ?? null,
      controlHash: hashControlToken(controlToken),
    },
    select: { id: true },
  });
  runEventBus().announceQueued();
  return { id: run.id, controlToken };
}
