// Shared class names of the team pages (kept in one place so the pages read as markup).
export const input = 'min-w-0 rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';
export const button = 'rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60';
export const quiet = 'rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900';
export const danger = 'rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-800 hover:bg-red-50 dark:border-red-900 dark:text-red-300 dark:hover:bg-red-950';
export const section = 'space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800';
export const muted = 'text-sm text-zinc-600 dark:text-zinc-400';
