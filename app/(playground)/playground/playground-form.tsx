'use client';
// The run form: skills, allowed tools, the task, the script (scripted provider), and the
// settings. Its state is one draft kept in sessionStorage, so Back returns to it; while
// the task and script are the generated ones, they follow the first chosen skill.
import { useActionState, useEffect, useState } from 'react';
import { turnsToScript } from '@/lib/forms/playground-start';
import { startRun, type StartRunState } from '../_actions/runs';
import { startFor } from './draft-start';
import type { PlaygroundDraft, SelectedSkill } from './form-types';
import { hintClass, inputClass, labelClass, panelClass } from './form-styles';
import { RunSettings } from './run-settings';
import { ScriptEditor } from './script-editor';
import { SkillPicker } from './skill-picker';
import { ToolChips } from './tool-chips';
import { TryToolPanel } from './try-tool-panel';

export function PlaygroundForm({ providers, initial, storageKey, signedIn = false }: { providers: string[]; initial: PlaygroundDraft; storageKey: string; signedIn?: boolean }) {
  const [state, formAction, pending] = useActionState<StartRunState, FormData>(startRun, { error: null });
  const [draft, setDraft] = useState<PlaygroundDraft>(initial);
  const set = (patch: Partial<PlaygroundDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // Back (or a reload) brings the draft back; anything else starts from `initial`
  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(storageKey);
      if (saved) setDraft({ ...initial, ...(JSON.parse(saved) as PlaygroundDraft) });
    } catch {
      // storage unavailable or a draft of an older shape: keep the fresh one
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storageKey]);
  useEffect(() => {
    try {
      sessionStorage.setItem(storageKey, JSON.stringify(draft));
    } catch {
      // private mode or full: the form still works, it only forgets on Back
    }
  }, [draft, storageKey]);

  const setSkills = (skills: SelectedSkill[]) => setDraft((d) => ({ ...d, skills, ...(d.edited ? {} : startFor(skills)) }));
  const tools = draft.skills.flatMap((s) => s.tools).filter((t, i, all) => all.findIndex((x) => x.name === t.name) === i);
  const allowed = new Set(draft.allowedTools.split(/\s+/).filter(Boolean));
  const toggleTool = (t: string) => {
    const next = new Set(allowed);
    if (next.has(t)) next.delete(t);
    else next.add(t);
    set({ allowedTools: [...next].join(' ') });
  };
  const reset = () => {
    sessionStorage.removeItem(storageKey);
    setDraft(initial);
  };

  return (
    <div className="min-w-0 space-y-6">
      <form action={formAction} className="grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]" data-testid="playground-form">
        <input type="hidden" name="script" value={draft.provider === 'scripted' ? JSON.stringify(turnsToScript(draft.turns)) : ''} />
        {draft.forkOf && <input type="hidden" name="forkOf" value={draft.forkOf} />}
        <div className="min-w-0 space-y-6">
          <section className={panelClass} aria-label="Skills and task">
            <SkillPicker selected={draft.skills} onChange={setSkills} />
            <div>
              <label htmlFor="allowed-tools" className={labelClass}>
                Allowed tools <span className="font-normal text-zinc-600 dark:text-zinc-400">(optional)</span>
              </label>
              <input
                id="allowed-tools"
                name="allowedTools"
                data-testid="allowed-tools"
                className={`${inputClass} font-mono`}
                placeholder="empty = discovery mode over all tools"
                value={draft.allowedTools}
                onChange={(e) => set({ allowedTools: e.target.value })}
              />
              <ToolChips tools={tools} allowed={allowed} onToggle={toggleTool} />
              <p className={hintClass}>
                Space-separated globs, e.g. <code className="font-mono">slugify count-*</code>.
              </p>
            </div>
            <div>
              <label htmlFor="task" className={labelClass}>
                Task
              </label>
              <textarea
                id="task"
                name="task"
                data-testid="task"
                required
                rows={3}
                value={draft.task}
                onChange={(e) => set({ task: e.target.value, edited: true })}
                className={`${inputClass} break-words`}
              />
            </div>
          </section>

          {draft.provider === 'scripted' && <ScriptEditor turns={draft.turns} onChange={(turns) => set({ turns, edited: true })} />}
          {draft.provider === 'manual' && (
            <p className="rounded-xl border border-dashed border-zinc-300 p-5 text-sm text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
              Manual mode: you play the model. The run page lists the tools you can call and asks you for the code of each turn.
            </p>
          )}
        </div>
        <RunSettings draft={draft} providers={providers} set={set} pending={pending} error={state.error} onReset={reset} signedIn={signedIn} />
      </form>
      {/* its own form: forms do not nest */}
      <TryToolPanel skills={draft.skills} />
    </div>
  );
}
