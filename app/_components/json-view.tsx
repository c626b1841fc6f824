// JSON folded in <details>: a one-line preview, the pretty text on demand, capped so
// a huge tool result cannot stall the page.
'use client';
import { memo, useState } from 'react';

const PREVIEW_CHARS = 120;
const MAX_SHOWN_CHARS = 20_000;

function stringify(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space) ?? String(value);
  } catch {
    return String(value);
  }
}

export const JsonView = memo(function JsonView({ value, label, testId, open = false }: { value: unknown; label?: string; testId?: string; open?: boolean }) {
  const [expanded, setExpanded] = useState(open);
  const compact = stringify(value);
  const preview = compact.length > PREVIEW_CHARS ? `${compact.slice(0, PREVIEW_CHARS)}…` : compact;
  let pretty = '';
  if (expanded) {
    pretty = stringify(value, 2);
    if (pretty.length > MAX_SHOWN_CHARS) {
      pretty = `${pretty.slice(0, MAX_SHOWN_CHARS)}\n… ${(pretty.length - MAX_SHOWN_CHARS).toLocaleString()} more characters not shown`;
    }
  }
  return (
    <details
      data-testid={testId}
      open={expanded}
      onToggle={(e) => setExpanded((e.currentTarget as HTMLDetailsElement).open)}
      className="group min-w-0 rounded-md border border-zinc-200 bg-white text-xs dark:border-zinc-800 dark:bg-zinc-950"
    >
      <summary className="flex cursor-pointer list-none items-baseline gap-2 px-2 py-1 font-mono marker:hidden">
        <span aria-hidden className="text-zinc-400 transition-transform group-open:rotate-90">
          ▸
        </span>
        {label && <span className="shrink-0 font-sans font-medium text-zinc-500">{label}</span>}
        <span className="truncate text-zinc-700 group-open:hidden dark:text-zinc-300">{preview}</span>
      </summary>
      {expanded && (
        <pre tabIndex={0} className="max-h-96 overflow-auto border-t border-zinc-200 px-3 py-2 font-mono leading-5 whitespace-pre-wrap break-words dark:border-zinc-800">
          {pretty}
        </pre>
      )}
    </details>
  );
});
