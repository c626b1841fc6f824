'use server';
// The picker adds a skill: the form gets its tools with parameters and availability.
// Read-only; getSkill hides what the (anonymous) viewer may not see.
import { z } from 'zod';
import type { SelectedSkill } from './form-types';
import { playgroundSkill } from './playground-skill';

const Ref = z.string().regex(/^@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/).max(200);

export async function loadPlaygroundSkill(ref: string): Promise<{ skill: SelectedSkill } | { error: string }> {
  const parsed = Ref.safeParse(ref);
  if (!parsed.success) return { error: 'Not a skill name (@scope/name).' };
  const skill = await playgroundSkill(parsed.data);
  return skill ? { skill } : { error: `There is no skill ${parsed.data}.` };
}
