'use client';
// The side panel of the run form: provider and model, limits, visibility, Start.
import type { PlaygroundDraft } from './form-types';
import { hintClass, inputClass, labelClass } from './form-styles';

// short option labels (a long one was cut off in the 22rem panel and at 390 px); what the
// chosen provider does is said under the select
const PROVIDER_LABELS: Record<string, string> = {
  scripted: 'Scripted',
  manual: 'Manual',
  openai: 'OpenAI-compatible model',
  anthropic: 'Anthropic model',
};
const PROVIDER_HINTS: Record<string, string> = {
  scripted: 'Replays the script below; not a model.',
  manual: 'You write the code of each turn.',
  openai: 'A model behind an OpenAI-compatible API.',
  anthropic: 'A Claude model through the Anthropic API.',
};

export function RunSettings({
  draft,
  providers,
  set,
  pending,
  error,
  onReset,
  signedIn = false,
}: {
  draft: PlaygroundDraft;
  providers: string[];
  set: (patch: Partial<PlaygroundDraft>) => void;
  pending: boolean;
  error: string | null;
  onReset: () => void;
  /** only a signed-in owner can keep a run private */
  signedIn?: boolean;
}) {
  const int = (v: string, fallback: number) => (v.trim() === '' || !Number.isFinite(Number(v)) ? fallback : Number(v));
  return (
    <aside className="min-w-0 space-y-4 rounded-xl border border-zinc-200 p-4 sm:p-5 lg:self-start dark:border-zinc-800" aria-label="Run settings">
      <div>
        <label htmlFor="provider" className={labelClass}>
          Provider
        </label>
        <select
          id="provider"
          name="provider"
          data-testid="provider"
          value={draft.provider}
          onChange={(e) => set({ provider: e.target.value })}
          className={`${inputClass} pr-1 pl-2`}
        >
          {providers.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABELS[p] ?? p}
            </option>
          ))}
        </select>
        {PROVIDER_HINTS[draft.provider] && (
          <p className={hintClass} data-testid="provider-hint">
            {PROVIDER_HINTS[draft.provider]}
          </p>
        )}
        {!providers.includes('openai') && !providers.includes('anthropic') && (
          <p className={hintClass}>No model API key is configured on this server: scripted and manual runs only.</p>
        )}
      </div>
      {(draft.provider === 'openai' || draft.provider === 'anthropic') && (
        <div>
          <label htmlFor="model" className={labelClass}>
            Model <span className="font-normal text-zinc-600 dark:text-zinc-400">(optional)</span>
          </label>
          <input
            id="model"
            name="model"
            data-testid="model"
            className={inputClass}
            placeholder="server default"
            value={draft.model}
            onChange={(e) => set({ model: e.target.value })}
          />
        </div>
      )}
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor="max-turns" className={labelClass}>
            Max turns
          </label>
          <input
            id="max-turns"
            name="maxTurns"
            data-testid="max-turns"
            type="number"
            min={1}
            max={100}
            value={draft.maxTurns}
            onChange={(e) => set({ maxTurns: int(e.target.value, draft.maxTurns) })}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="max-steps" className={labelClass}>
            Max steps
          </label>
          <input
            id="max-steps"
            name="maxSteps"
            data-testid="max-steps"
            type="number"
            min={1}
            max={200}
            value={draft.maxSteps}
            onChange={(e) => set({ maxSteps: int(e.target.value, draft.maxSteps) })}
            className={inputClass}
          />
        </div>
      </div>
      <div>
        <label htmlFor="visibility" className={labelClass}>
          Visibility
        </label>
        <select
          id="visibility"
          name="visibility"
          value={draft.visibility}
          onChange={(e) => set({ visibility: e.target.value as PlaygroundDraft['visibility'] })}
          className={inputClass}
        >
          <option value="unlisted">Unlisted (anyone with the link)</option>
          <option value="public">Public</option>
          {(signedIn || draft.visibility === 'private') && <option value="private">Private (only you)</option>}
        </select>
        {draft.visibility === 'private' && !signedIn && <p className={hintClass}>Only a signed-in person can own a private run: sign in, or pick another visibility.</p>}
      </div>
      <button
        type="submit"
        data-testid="start-run"
        disabled={pending || draft.skills.length === 0}
        className="w-full rounded-lg bg-emerald-700 px-4 py-2.5 text-sm font-medium text-white shadow-sm hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {pending ? 'Starting…' : draft.forkOf ? 'Start the edited run' : 'Start run'}
      </button>
      <button type="button" data-testid="reset-form" onClick={onReset} className="w-full text-xs text-zinc-700 underline dark:text-zinc-300">
        Start over
      </button>
      <p role="alert" data-testid="form-error" className="text-sm break-words text-red-700 empty:hidden dark:text-red-400">
        {error ?? ''}
      </p>
    </aside>
  );
}
