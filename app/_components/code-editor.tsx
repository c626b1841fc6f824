'use client';
// A code textarea with the trace's JavaScript highlighting drawn behind it: the text
// area stays a real <textarea> (typing, selection, accessibility), the colours come from
// a <pre> under it with the same font and wrapping. It grows with its content.
import { highlight } from './code-block';

const shared = 'm-0 w-full rounded-lg px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-all';

export function CodeEditor({
  id,
  value,
  onChange,
  label,
  minRows = 4,
  placeholder,
  testId,
  invalid,
  describedBy,
  onKeyDown,
  name,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  label?: string;
  minRows?: number;
  placeholder?: string;
  testId?: string;
  invalid?: boolean;
  describedBy?: string;
  onKeyDown?: (e: React.KeyboardEvent<HTMLTextAreaElement>) => void;
  name?: string;
}) {
  const rows = Math.max(minRows, value.split('\n').length + 1);
  return (
    <div className="relative min-w-0 rounded-lg border border-zinc-300 bg-white focus-within:border-emerald-600 focus-within:ring-2 focus-within:ring-emerald-600/20 dark:border-zinc-700 dark:bg-zinc-900">
      <pre aria-hidden className={`${shared} pointer-events-none absolute inset-0 overflow-hidden text-zinc-800 dark:text-zinc-200`}>
        {highlight(value)}
        {/* a line for the caret after a trailing newline; a space when empty: HTML drops a newline
            right after <pre>, so "\n" alone would not hydrate (React error 418) */}
        {value === '' ? ' ' : '\n'}
      </pre>
      <textarea
        id={id}
        name={name}
        aria-label={label}
        data-testid={testId}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        rows={rows}
        value={value}
        placeholder={placeholder}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        className={`${shared} relative block resize-y bg-transparent text-transparent caret-zinc-900 outline-none placeholder:text-zinc-500 dark:caret-zinc-100`}
      />
    </div>
  );
}
