'use client';
// The scripted provider's script, one block per model turn: what the "model" says and
// the code it runs, highlighted. The form sends it as JSON; nobody types JSON.
import { CodeEditor } from '@/app/_components/code-editor';
import type { ScriptTurnDraft } from '@/lib/forms';
import { hintClass, inputClass, panelClass } from './form-styles';

const small = 'rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800';

export function ScriptEditor({ turns, onChange }: { turns: ScriptTurnDraft[]; onChange: (turns: ScriptTurnDraft[]) => void }) {
  const set = (i: number, patch: Partial<ScriptTurnDraft>) => onChange(turns.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const move = (i: number, by: -1 | 1) => {
    const next = turns.slice();
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  return (
    <section className={panelClass} aria-labelledby="script-heading" data-testid="script-editor">
      <div>
        <h2 id="script-heading" className="text-sm font-semibold">
          Script
        </h2>
        <p className={hintClass}>
          One block per model turn. Code calls tools with <code className="font-mono">await ctx.invoke(&apos;tool-name&apos;, args)</code>, keeps state in{' '}
          <code className="font-mono">memory</code> and ends the run with <code className="font-mono">ctx.finish(value)</code>. Leave the code empty for a turn that only talks.
        </p>
      </div>
      <ol className="space-y-3">
        {turns.map((t, i) => (
          <li key={i} data-testid="script-turn" className="min-w-0 space-y-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium">Turn {i + 1}</span>
              <span className="ml-auto flex gap-1">
                <button type="button" className={small} onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move turn ${i + 1} up`}>
                  ↑
                </button>
                <button type="button" className={small} onClick={() => move(i, 1)} disabled={i === turns.length - 1} aria-label={`Move turn ${i + 1} down`}>
                  ↓
                </button>
                <button type="button" className={small} onClick={() => onChange(turns.filter((_, j) => j !== i))} disabled={turns.length === 1} aria-label={`Remove turn ${i + 1}`}>
                  Remove
                </button>
              </span>
            </div>
            <label htmlFor={`turn-${i}-text`} className="sr-only">
              Turn {i + 1} message
            </label>
            <input id={`turn-${i}-text`} className={inputClass} placeholder="What the model says (optional)" value={t.text} onChange={(e) => set(i, { text: e.target.value })} />
            <CodeEditor
              id={`turn-${i}-code`}
              label={`Turn ${i + 1} code`}
              value={t.code}
              minRows={3}
              onChange={(code) => set(i, { code })}
              placeholder="// no code: this turn only talks"
            />
          </li>
        ))}
      </ol>
      <button type="button" data-testid="add-turn" className={small} onClick={() => onChange([...turns, { text: '', code: '' }])}>
        + Add a turn
      </button>
    </section>
  );
}
