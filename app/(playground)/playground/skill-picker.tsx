'use client';
// Skills of the run: chips for the chosen ones, and a search-as-you-type combobox.
import { useEffect, useId, useRef, useState } from 'react';
import type { PlaygroundSkillOption } from '@/app/api/v1/playground/skills/route';
import type { SelectedSkill } from './form-types';
import { inputClass, labelClass } from './form-styles';
import { loadPlaygroundSkill } from '../_actions/skills';

export function SkillPicker({ selected, onChange }: { selected: SelectedSkill[]; onChange: (s: SelectedSkill[]) => void }) {
  const [query, setQuery] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
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
  const add = async (o: PlaygroundSkillOption) => {
    setQuery('');
    setProblem(null);
    const loaded = await loadPlaygroundSkill(`@${o.scope}/${o.name}`);
    if ('error' in loaded) setProblem(loaded.error);
    else onChange([...selected.filter((s) => s.ref !== loaded.skill.ref), loaded.skill]);
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
        {selected.length === 0 && <li className="text-sm text-zinc-600 dark:text-zinc-400">No skill yet: search below.</li>}
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
              if (visible[active]) void add(visible[active]);
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
                  void add(o);
                }}
                onMouseEnter={() => setActive(i)}
                className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-emerald-50 dark:bg-emerald-950' : ''}`}
              >
                <div className="font-mono font-medium">
                  @{o.scope}/{o.name}
                  <span className="ml-2 font-sans text-xs font-normal text-zinc-600 dark:text-zinc-400">
                    {o.tools.length === 0 ? 'instructions only' : `${o.tools.length} ${o.tools.length === 1 ? 'tool' : 'tools'}`}
                  </span>
                </div>
                <div className="line-clamp-1 text-xs text-zinc-600 dark:text-zinc-400">{o.description}</div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}
