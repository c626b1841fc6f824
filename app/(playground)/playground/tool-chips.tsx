'use client';
// The tools of the chosen skills, as toggles for the allowed-tools spec. A tool that
// cannot run on this server, or that is locked (and what unlocks it), says so next to its name.
import { LockIcon } from '@/app/_components/lock-icon';
import type { ToolAvailability } from '@/app/_components/tool-availability';
import { unlockText } from '@/app/_components/unlock-text';

export function ToolChips({ tools, allowed, onToggle }: { tools: ToolAvailability[]; allowed: Set<string>; onToggle: (name: string) => void }) {
  if (tools.length === 0) return null;
  const notes = tools.filter((t) => t.cannotRun || t.unlocks.length > 0);
  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Tools of the selected skills">
        <span className="text-xs text-zinc-600 dark:text-zinc-400">Tools:</span>
        {tools.map((t) => (
          <button
            key={t.name}
            type="button"
            data-testid="tool-chip"
            data-tool={t.name}
            data-runnable={t.cannotRun ? 'false' : 'true'}
            data-gated={t.unlocks.length > 0 ? 'true' : 'false'}
            aria-pressed={allowed.has(t.name)}
            onClick={() => onToggle(t.name)}
            title={t.cannotRun ? `Cannot run here: ${t.cannotRun}` : t.unlocks.length ? `Locked: ${unlockText(t)}` : t.description}
            className={`inline-flex items-center gap-1 rounded-md border px-1.5 py-0.5 font-mono text-xs ${
              allowed.has(t.name)
                ? 'border-emerald-700 bg-emerald-700 text-white'
                : t.cannotRun
                  ? 'border-dashed border-zinc-400 text-zinc-600 line-through dark:text-zinc-400'
                  : 'border-zinc-400 text-zinc-800 hover:border-emerald-600 dark:border-zinc-600 dark:text-zinc-200'
            }`}
          >
            {t.unlocks.length > 0 && <LockIcon />}
            {t.name}
          </button>
        ))}
      </div>
      {notes.length > 0 && (
        <ul className="space-y-1 text-xs" data-testid="tool-notes">
          {notes.map((t) => (
            <li key={t.name} data-tool={t.name} className="text-zinc-700 dark:text-zinc-300">
              <code className="font-mono font-semibold">{t.name}</code>{' '}
              {t.cannotRun ? <span data-testid="cannot-run">cannot run here: it {t.cannotRun}.</span> : <span data-testid="unlock-hint">is locked: {unlockText(t)}.</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
