// The task and script a fresh form shows (server page and client form both use it).
import { playgroundStart } from '@/lib/forms/playground-start';
import { unlockText } from '@/app/_components/unlock-text';
import type { PlaygroundDraft, SelectedSkill } from './form-types';

/** Task and script generated from the first skill (what a fresh form shows). */
export function startFor(skills: SelectedSkill[]): Pick<PlaygroundDraft, 'task' | 'turns'> {
  const first = skills[0];
  if (!first) return { task: '', turns: [{ text: '', code: '' }] };
  const start = playgroundStart(
    first.ref,
    first.tools.map((t) => ({ name: t.name, params: t.params, runnable: !t.cannotRun, gated: t.unlocks.length > 0, example: t.example, unlock: unlockText(t) })),
  );
  return { task: start.task, turns: start.turns };
}
