'use client';
// The home page's search field with suggestions as you type: a request per pause in
// typing (debounced, the previous one aborted), a list of matching skills under the field
// (a combobox: arrows move, Enter opens the highlighted skill, Escape closes), and Enter
// without a highlighted skill submits the full search as before.
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';

type Suggestion = { scope: string; name: string; description: string };

const DEBOUNCE_MS = 150;

export function SearchBox({ defaultValue }: { defaultValue: string }) {
  const router = useRouter();
  const listId = useId();
  const [value, setValue] = useState(defaultValue);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [fixes, setFixes] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useRef(false);

  useEffect(() => {
    if (!typed.current) return;
    const q = value.trim();
    const ctrl = new AbortController();
    const timer = setTimeout(async () => {
      if (q.length < 2) {
        setItems([]);
        setOpen(false);
        return;
      }
      try {
        const res = await fetch(`/api/v1/search/suggest?q=${encodeURIComponent(q)}`, { signal: ctrl.signal, headers: { accept: 'application/json' } });
        if (!res.ok) return; // a refused or failed suggestion leaves the field as it is
        const body = (await res.json()) as { suggestions: Suggestion[]; corrections: Record<string, string[]> };
        setItems(body.suggestions);
        setFixes(Object.values(body.corrections).flat().slice(0, 3));
        setActive(-1);
        setOpen(true);
      } catch {
        // aborted by the next keystroke, or offline: nothing to show
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [value]);

  const href = (s: Suggestion) => `/skills/${s.scope}/${s.name}`;
  const optionId = (i: number) => `${listId}-opt-${i}`;
  const shown = open && value.trim().length >= 2;

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' && items.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % items.length);
    } else if (e.key === 'ArrowUp' && items.length) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (e.key === 'Escape' && shown) {
      // the first Escape closes the list; only a second one clears the field (the browser's own)
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (e.key === 'Enter' && shown && active >= 0 && items[active]) {
      e.preventDefault();
      router.push(href(items[active]));
    }
  }

  return (
    <div className="relative min-w-0 flex-1 basis-48">
      <input
        type="search"
        name="q"
        value={value}
        onChange={(e) => {
          typed.current = true;
          setValue(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onFocus={() => {
          if (items.length) setOpen(true);
        }}
        placeholder="Search skills…"
        aria-label="Search skills"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        data-testid="search-input"
        className="w-full min-w-0 rounded-lg border border-zinc-400 bg-white px-3 py-2 text-sm outline-none focus:border-emerald-600 dark:border-zinc-600 dark:bg-zinc-900"
      />
      <div
        className={`absolute top-full right-0 left-0 z-30 mt-1 overflow-hidden rounded-lg border border-zinc-300 bg-white shadow-lg dark:border-zinc-700 dark:bg-zinc-900 ${shown ? '' : 'hidden'}`}
        data-testid="search-suggestions"
      >
        {fixes.length > 0 && (
          <p className="border-b border-zinc-200 px-3 py-1.5 text-xs text-zinc-700 dark:border-zinc-800 dark:text-zinc-300" data-testid="suggest-corrections">
            Also searching for: {fixes.join(', ')}
          </p>
        )}
        <ul id={listId} role="listbox" aria-label="Suggested skills">
          {items.map((s, i) => (
            <li
              key={`${s.scope}/${s.name}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                router.push(href(s));
              }}
              className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-emerald-50 dark:bg-emerald-950' : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'}`}
            >
              <span className="block truncate font-medium">
                @{s.scope}/{s.name}
              </span>
              <span className="block truncate text-xs text-zinc-700 dark:text-zinc-300">{s.description}</span>
            </li>
          ))}
          {items.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-zinc-700 dark:text-zinc-300">
              No skill name matches yet; press Enter to search everything.
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
