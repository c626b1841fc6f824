// The version controls of the skill page as one operation: yank or unyank a version,
// deprecate or undeprecate it, point a dist-tag at it or remove a tag. The input is
// parsed here, the scope check is the one the API uses (assertScopeOwner inside each
// operation), and a team scope's audit log records it like the API route would.
import 'server-only';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { auditScopeAction, type Actor } from '../teams';
import { deprecateVersion } from './deprecate-version';
import { setDistTag } from './set-dist-tag';
import { yankVersion } from './yank-version';

const Ref = { scope: z.string().min(1).max(64), name: z.string().min(1).max(214), version: z.string().min(1).max(64) };

export const ZManageVersion = z.discriminatedUnion('op', [
  z.object({ op: z.literal('yank'), ...Ref, reason: z.string().trim().max(500).optional() }),
  z.object({ op: z.literal('unyank'), ...Ref }),
  z.object({ op: z.literal('deprecate'), ...Ref, message: z.string().trim().min(1, 'Say why it is deprecated (for example, what to use instead).').max(1000) }),
  z.object({ op: z.literal('undeprecate'), ...Ref }),
  z.object({ op: z.literal('tag'), ...Ref, tag: z.string().trim().min(1, 'Name the tag (for example next or beta).').max(32) }),
  z.object({ op: z.literal('untag'), scope: Ref.scope, name: Ref.name, tag: z.string().trim().min(1).max(32) }),
]);
export type TManageVersion = z.infer<typeof ZManageVersion>;

/** Runs one version control for the acting user; returns what to tell them. */
export async function manageVersion(db: Db, actor: Actor, raw: unknown): Promise<string> {
  if (actor.principal.kind !== 'user') throw new AppError('auth/unauthenticated', 'Sign in to manage versions.');
  const userId = actor.principal.userId;
  const parsed = ZManageVersion.safeParse(raw);
  if (!parsed.success) throw new AppError('input/invalid', parsed.error.issues[0]?.message ?? 'That request is not valid.');
  const input = parsed.data;
  const ref = `@${input.scope}/${input.name}`;
  switch (input.op) {
    case 'yank':
    case 'unyank': {
      const undo = input.op === 'unyank';
      await yankVersion(db, { scope: input.scope, name: input.name, version: input.version, userId, reason: undo ? null : input.reason || null, undo });
      await auditScopeAction(db, input.scope, actor, undo ? 'skill.unyank' : 'skill.yank', `${ref}@${input.version}`, !undo && input.reason ? { reason: input.reason } : undefined);
      return undo ? `${input.version} is back in ranges and listings.` : `${input.version} is yanked: it stays installable by its exact number only.`;
    }
    case 'deprecate':
    case 'undeprecate': {
      const message = input.op === 'deprecate' ? input.message : '';
      // an exact version is a range that matches only itself
      await deprecateVersion(db, { scope: input.scope, name: input.name, range: input.version, message, userId });
      await auditScopeAction(db, input.scope, actor, 'skill.deprecate', `${ref}@${input.version}`, { message });
      return message ? `${input.version} is deprecated.` : `${input.version} is no longer deprecated.`;
    }
    case 'tag':
      await setDistTag(db, { scope: input.scope, name: input.name, tag: input.tag, version: input.version, userId });
      await auditScopeAction(db, input.scope, actor, 'skill.tag', ref, { tag: input.tag, version: input.version });
      return `${input.tag} now points at ${input.version}.`;
    case 'untag':
      await setDistTag(db, { scope: input.scope, name: input.name, tag: input.tag, version: null, userId });
      await auditScopeAction(db, input.scope, actor, 'skill.untag', ref, { tag: input.tag });
      return `The ${input.tag} tag is removed.`;
  }
}
