'use server';
// The picker adds a skill: the form gets its tools with parameters and availability.
// Read-only; getSkill hides what the (anonymous) viewer may not see. It goes through the
// action chain like every other action: it answers with the viewer's own unlocks.
import { z } from 'zod';
import { serverAction } from '@/lib/actions';
import type { SelectedSkill } from '../playground/form-types';
import { playgroundSkill } from '../playground/playground-skill';

const Ref = z
  .string()
  .regex(/^@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'Not a skill name (@scope/name).')
  .max(200, 'Not a skill name (@scope/name).');

const load = serverAction({ name: 'load a playground skill', input: Ref }, async (ref) => {
  const skill = await playgroundSkill(ref);
  return skill ? { skill } : { missing: `There is no skill ${ref}.` };
});

export async function loadPlaygroundSkill(ref: string): Promise<{ skill: SelectedSkill } | { error: string }> {
  const state = await load(ref);
  if (!state.ok) return { error: state.error ?? 'Not a skill name (@scope/name).' };
  return state.skill ? { skill: state.skill } : { error: state.missing ?? `There is no skill ${ref}.` };
}
