import 'server-only';
// A skill as the playground form needs it: its tools with parameters, what unlocks the
// gated ones for this viewer and which cannot run here. Built on the server (the
// planner, the viewer's tokens and the server's handler settings live there).
import { currentUser } from '@/lib/session';
import { heldTokenClaims } from '@/lib/teams';
import { getSkill, parseSkillRef } from '@/lib/registry';
import type { ToolManifest } from '@/lib/skills';
import { serverContext } from '@/lib/server';
import { toolAvailability } from '@/app/_components/tool-availability';
import type { SelectedSkill } from './form-types';

async function load(ref: string) {
  const { scope, name } = parseSkillRef(ref);
  const user = await currentUser().catch(() => null);
  const db = serverContext().db;
  const skill = await getSkill(db, { scope, name }, user ? { userId: user.id } : null);
  return { skill, held: await heldTokenClaims(db, user?.id ?? null), signedIn: !!user };
}

export async function playgroundSkill(ref: string): Promise<SelectedSkill | null> {
  try {
    const { skill, held, signedIn } = await load(ref);
    return { ref: `@${skill.scope}/${skill.name}`, description: skill.description, tools: toolAvailability(skill.manifest, skill.scope, held, { signedIn }) };
  } catch {
    return null;
  }
}

/** The raw tool manifests, for the identity planner's connect buttons. */
export async function skillToolManifests(ref: string): Promise<ToolManifest[]> {
  return load(ref).then(
    ({ skill }) => skill.manifest.tools,
    () => [],
  );
}
