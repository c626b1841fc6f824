'use client';
// The run form: skills (search as you type), allowed tools, provider and model, limits,
// the task, and for the scripted provider the script. Submits to the startRun action.
import { useActionState, useEffect, useId, useRef, useState } from 'react';
import type { PlaygroundSkillOption } from '@/app/api/v1/playground/skills/route';
import { startRun, type StartRunState } from './actions';

export type SelectedSkill = { ref: string; description: string; tools: string[] };

const PROVIDER_LABELS: Record<string, string> = {
  scripted: 'Scripted (replays a script — not a model)',
  manual: 'Manual (you write the code of each turn)',
  openai: 'OpenAI-compatible model',
  anthropic: 'Anthropic model',
};

const EXAMPLE_SCRIPT = `[
  {
    "text": "I'll slugify a few titles with the slugify tool.",
    "code": "const titles = ['Hello, World!', 'Crème brûlée & café', 'Straße der Ærøskøbing'];\\nmemory.slugs = [];\\nfor (const text of titles) {\\n  const { slug } = await ctx.invoke('slugify', { text });\\n  memory.slugs.push(slug);\\n}\\nreturn memory.slugs;"
  },
  {
    "text": "Now one with underscores and a length limit.",
    "code": "return await ctx.invoke('slugify', { text: 'A rather long title for a blog post', separator: '_', max_length: 20 });"
  },
  {
    "text": "Done: returning the slugs.",
    "code": "ctx.finish({ slugs: memory.slugs });"
  }
]`;

const EXAMPLE_TASK = 'Turn these titles into URL slugs: "Hello, World!", "Crème brûlée & café", "Straße der Ærøskøbing".';

const inputClass =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm outline-none focus:border-emerald-600 focus:ring-2 focus:ring-emerald-600/20 dark:border-zinc-700 dark:bg-zinc-900';
const labelClass = 'mb-1 block text-sm font-medium text-zinc-800 dark:text-zinc-200';
const hintClass = 'mt-1 text-xs text-zinc-500';

function SkillPicker({ selected, onChange }: { selected: SelectedSkill[]; onChange: (s: SelectedSkill[]) => void }) {
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<PlaygroundSkillOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const request = useRef(0);

  useEffect(() => {
    if (!open) return;
    const mine = ++request.current;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/api/v1/playground/skills?q=${encodeURIComponent(query)}`);
        if (!res.ok || mine !== request.current) return;
        setOptions((await res.json()) as PlaygroundSkillOption[]);
        setActive(0);
      } catch {
        // offline or navigating away: keep the last options
      }
    }, 120);
    return () => clearTimeout(timer);
  }, [query, open]);

  const chosen = new Set(selected.map((s) => s.ref));
  const visible = options.filter((o) => !chosen.has(`@${o.scope}/${o.name}`));
  const add = (o: PlaygroundSkillOption) => {
    onChange([...selected, { ref: `@${o.scope}/${o.name}`, description: o.description, tools: o.tools }]);
    setQuery('');
  };

  return (
    <div className="space-y-2">
      <label htmlFor="skill-search" className={labelClass}>
        Skills
      </label>
      <ul className="flex flex-wrap gap-2" data-testid="selected-skills" aria-label="Selected skills">
        {selected.map((s) => (
          <li
            key={s.ref}
            data-testid="selected-skill"
            className="flex items-center gap-1 rounded-full border border-emerald-300 bg-emerald-50 py-0.5 pr-1 pl-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
          >
            <span className="font-mono">{s.ref}</span>
            <input type="hidden" name="skill" value={s.ref} />
            <button
              type="button"
              aria-label={`Remove ${s.ref}`}
              onClick={() => onChange(selected.filter((x) => x.ref !== s.ref))}
              className="grid h-5 w-5 place-items-center rounded-full text-emerald-700 hover:bg-emerald-200 dark:text-emerald-300 dark:hover:bg-emerald-900"
            >
              ×
            </button>
          </li>
        ))}
        {selected.length === 0 && <li className="text-sm text-zinc-500">No skill yet: search below.</li>}
      </ul>
      <div className="relative">
        <input
          id="skill-search"
          data-testid="skill-search"
          role="combobox"
          aria-expanded={open && visible.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          autoComplete="off"
          placeholder="Search skills to add…"
          className={inputClass}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, visible.length - 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Escape') setOpen(false);
            else if (e.key === 'Enter') {
              e.preventDefault(); // never submit the form from the search box
              if (visible[active]) add(visible[active]);
            } else return;
          }}
        />
        {open && visible.length > 0 && (
          <ul
            id={listId}
            role="listbox"
            aria-label="Matching skills"
            className="absolute z-10 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
          >
            {visible.map((o, i) => (
              <li
                key={`${o.scope}/${o.name}`}
                role="option"
                aria-selected={i === active}
                data-testid="skill-option"
                onMouseDown={(e) => {
                  e.preventDefault();
                  add(o);
                }}
                onMouseEnter={() => setActive(i)}
                className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-emerald-50 dark:bg-emerald-950' : ''}`}
              >
                <div className="font-mono font-medium">
                  @{o.scope}/{o.name}
                  <span className="ml-2 font-sans text-xs font-normal text-zinc-500">
                    {o.tools.length === 0 ? 'instructions only' : `${o.tools.length} ${o.tools.length === 1 ? 'tool' : 'tools'}`}
                  </span>
                </div>
                <div className="line-clamp-1 text-xs text-zinc-600 dark:text-zinc-400">{o.description}</div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export function PlaygroundForm({ providers, initialSkills }: { providers: string[]; initialSkills: SelectedSkill[] }) {
  const [state, formAction, pending] = useActionState<StartRunState, FormData>(startRun, { error: null });
  const [skills, setSkills] = useState<SelectedSkill[]>(initialSkills);
  const [provider, setProvider] = useState(providers[0] ?? 'scripted');
  const [allowedTools, setAllowedTools] = useState('');
  const [script, setScript] = useState(EXAMPLE_SCRIPT);
  const [scriptProblem, setScriptProblem] = useState<string | null>(null);

  const tools = [...new Set(skills.flatMap((s) => s.tools))];
  const allowed = new Set(allowedTools.split(/\s+/).filter(Boolean));
  const toggleTool = (t: string) => {
    const next = new Set(allowed);
    if (next.has(t)) next.delete(t);
    else next.add(t);
    setAllowedTools([...next].join(' '));
  };

  const checkScript = (text: string) => {
    try {
      const value = JSON.parse(text);
      setScriptProblem(Array.isArray(value) ? null : 'The script must be a JSON array (one item per model turn).');
    } catch (err) {
      setScriptProblem((err as Error).message);
    }
  };

  return (
    <form action={formAction} className="grid gap-6 lg:grid-cols-[1fr_24rem]" data-testid="playground-form">
      <div className="min-w-0 space-y-6">
        <section className="space-y-4 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
          <SkillPicker selected={skills} onChange={setSkills} />
          <div>
            <label htmlFor="allowed-tools" className={labelClass}>
              Allowed tools <span className="font-normal text-zinc-500">(optional)</span>
            </label>
            <input
              id="allowed-tools"
              name="allowedTools"
              data-testid="allowed-tools"
              className={`${inputClass} font-mono`}
              placeholder="empty = discovery mode over all tools of the skills"
              value={allowedTools}
              onChange={(e) => setAllowedTools(e.target.value)}
            />
            {tools.length > 0 && (
              <div className="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Tools of the selected skills">
                <span className="text-xs text-zinc-500">Tools:</span>
                {tools.map((t) => (
                  <button
                    key={t}
                    type="button"
                    aria-pressed={allowed.has(t)}
                    onClick={() => toggleTool(t)}
                    className={`rounded-md border px-1.5 py-0.5 font-mono text-xs ${
                      allowed.has(t)
                        ? 'border-emerald-600 bg-emerald-600 text-white'
                        : 'border-zinc-300 text-zinc-700 hover:border-emerald-600 dark:border-zinc-700 dark:text-zinc-300'
                    }`}
                  >
                    {t}
                  </button>
                ))}
              </div>
            )}
            <p className={hintClass}>Space-separated globs, e.g. <code className="font-mono">slugify count-*</code>.</p>
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
              defaultValue={EXAMPLE_TASK}
              className={inputClass}
            />
          </div>
        </section>

        {provider === 'scripted' && (
          <section className="space-y-2 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <label htmlFor="script" className={labelClass}>
              Script
            </label>
            <p className="text-xs text-zinc-500">
              A JSON array, one item per model turn: a string is the code of that turn&apos;s <code className="font-mono">invoke</code>
              ; <code className="font-mono">{'{"text", "code"}'}</code> adds model text. Code calls tools with{' '}
              <code className="font-mono">await ctx.invoke(&apos;tool-name&apos;, args)</code>, keeps state in{' '}
              <code className="font-mono">memory</code> and ends the run with <code className="font-mono">ctx.finish(value)</code>.
            </p>
            <textarea
              id="script"
              name="script"
              data-testid="script-editor"
              spellCheck={false}
              rows={16}
              value={script}
              onChange={(e) => {
                setScript(e.target.value);
                checkScript(e.target.value);
              }}
              aria-invalid={!!scriptProblem}
              aria-describedby="script-problem"
              className={`${inputClass} font-mono text-xs leading-5`}
            />
            <p id="script-problem" role="status" className="text-xs text-red-600 dark:text-red-400">
              {scriptProblem ? `Not valid yet: ${scriptProblem}` : ''}
            </p>
          </section>
        )}
        {provider === 'manual' && (
          <p className="rounded-xl border border-dashed border-zinc-300 p-5 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            Manual mode: you play the model. The run page asks you for the code of each turn and shows what it did.
          </p>
        )}
      </div>

      <aside className="space-y-4 rounded-xl border border-zinc-200 p-5 lg:self-start dark:border-zinc-800">
        <div>
          <label htmlFor="provider" className={labelClass}>
            Provider
          </label>
          <select
            id="provider"
            name="provider"
            data-testid="provider"
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
            className={`${inputClass} pr-1 pl-2`}
          >
            {providers.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p] ?? p}
              </option>
            ))}
          </select>
          {!providers.includes('openai') && !providers.includes('anthropic') && (
            <p className={hintClass}>No model API key is configured on this server: scripted and manual runs only.</p>
          )}
        </div>
        {(provider === 'openai' || provider === 'anthropic') && (
          <div>
            <label htmlFor="model" className={labelClass}>
              Model <span className="font-normal text-zinc-500">(optional)</span>
            </label>
            <input id="model" name="model" data-testid="model" className={inputClass} placeholder="server default" />
          </div>
        )}
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor="max-turns" className={labelClass}>
              Max turns
            </label>
            <input id="max-turns" name="maxTurns" data-testid="max-turns" type="number" min={1} max={100} defaultValue={30} className={inputClass} />
          </div>
          <div>
            <label htmlFor="max-steps" className={labelClass}>
              Max steps
            </label>
            <input id="max-steps" name="maxSteps" data-testid="max-steps" type="number" min={1} max={200} defaultValue={30} className={inputClass} />
          </div>
        </div>
        <div>
          <label htmlFor="visibility" className={labelClass}>
            Visibility
          </label>
          <select id="visibility" name="visibility" defaultValue="unlisted" className={inputClass}>
            <option value="unlisted">Unlisted (anyone with the link)</option>
            <option value="public">Public</option>
          </select>
        </div>
        <button
          type="submit"
          data-testid="start-run"
          disabled={pending || skills.length === 0}
          className="w-full rounded-lg bg-emerald-600 px-4 py-2.5 text-sm font-medium text-white shadow-sm hover:bg-emerald-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {pending ? 'Starting…' : 'Start run'}
        </button>
        <p role="alert" data-testid="form-error" className="text-sm text-red-600 empty:hidden dark:text-red-400">
          {state.error ?? ''}
        </p>
      </aside>
    </form>
  );
}
