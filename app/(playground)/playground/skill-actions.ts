'use server';
// The picker adds a skill: the form gets its tools with parameters and availability.
// Read-only; getSkill hides what the (anonymous) viewer may not see. It checks the origin
// like every other action: it answers with the viewer's own unlocks (which tokens they hold).
import { z } from 'zod';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { isAppError } from '@/lib/errors';
import type { SelectedSkill } from './form-types';
import { playgroundSkill } from './playground-skill';

const Ref = z.string().regex(/^@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/).max(200);

export async function loadPlaygroundSkill(ref: string): Promise<{ skill: SelectedSkill } | { error: string }> {
  try {
    await assertSameOrigin();
  } catch (err) {
    if (isAppError(err)) return { error: err.message };
    throw err;
  }
  const parsed = Ref.safeParse(ref);
  if (!parsed.success) return { error: 'Not a skill name (@scope/name).' };
  const skill = await playgroundSkill(parsed.data);
  return skill ? { skill } : { error: `There is no skill ${parsed.data}.` };
}
