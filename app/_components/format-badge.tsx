export const FORMAT_LABELS: Record<string, string> = {
  'agent-skill': 'Agent Skill',
  'skill-md': '.skill.md',
  'code-skill': 'Code skill',
  malv: 'malv',
  rye: 'Rye',
};

const COLORS: Record<string, string> = {
  'agent-skill': 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  'skill-md': 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  'code-skill': 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300',
  malv: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  rye: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
};

export function FormatBadge({ format }: { format: string }) {
  return (
    <span
      data-testid="format-badge"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${COLORS[format] ?? 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'}`}
    >
      {FORMAT_LABELS[format] ?? format}
    </span>
  );
}
