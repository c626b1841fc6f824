import type { Metadata } from 'next';
import { serverContext } from '@/lib/server';
import { getSkill } from '@/lib/registry/get-skill';
import { parseSkillRef } from '@/lib/registry/load-skill-version';
import { availableProviders } from '@/lib/runs/server-providers';
import { PlaygroundForm, type SelectedSkill } from './playground-form';
import { currentUser } from '@/lib/auth/current-user';
import { heldTokenClaims, usableTools } from '@/lib/auth/unlock-plan';
import { providersFor } from '@/lib/auth/model-access';
import type { ToolManifest } from '@/lib/skills/types';
import { UnlockPlanner } from '../../(account)/_components/unlock-planner';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Playground' };

const DEFAULT_SKILL = '@skillyard/slugify';

// gated tools appear only to a viewer who holds their tokens (the planner offers the rest)
async function preselect(ref: string): Promise<(SelectedSkill & { manifestTools: ToolManifest[] }) | null> {
  try {
    const { scope, name } = parseSkillRef(ref);
    const user = await currentUser().catch(() => null);
    const skill = await getSkill(serverContext().db, { scope, name }, user ? { userId: user.id } : null);
    const held = await heldTokenClaims(serverContext().db, user?.id ?? null);
    return {
      ref: `@${skill.scope}/${skill.name}`,
      description: skill.description,
      tools: usableTools(skill.manifest.tools, held).map((t) => t.name),
      manifestTools: skill.manifest.tools,
    };
  } catch {
    return null;
  }
}

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const requested = typeof params.skill === 'string' ? params.skill : null;
  const initial = (requested && (await preselect(requested))) || (await preselect(DEFAULT_SKILL));
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Playground</h1>
        <p className="max-w-3xl text-zinc-600 dark:text-zinc-400">
          Give an agent some skills and a task. It works in code: each turn it writes JavaScript that calls the skills&apos;
          tools in a sandbox, and you watch every step live. Runs are unlisted by default: anyone with the link can watch them.
        </p>
      </header>
      {initial && <UnlockPlanner tools={initial.manifestTools} next={`/playground?skill=${encodeURIComponent(initial.ref)}`} />}
      <PlaygroundForm providers={(await providersFor(serverContext().db, (await currentUser().catch(() => null))?.id ?? null, availableProviders())) as ReturnType<typeof availableProviders>} initialSkills={initial ? [{ ref: initial.ref, description: initial.description, tools: initial.tools }] : []} />
    </div>
  );
}
