// Class names the playground's form parts share.
export const inputClass =
  'w-full min-w-0 rounded-lg border border-zinc-400 bg-white px-3 py-2 text-sm outline-none focus:border-emerald-600 focus:ring-2 focus:ring-emerald-600/20 dark:border-zinc-600 dark:bg-zinc-900';
export const labelClass = 'mb-1 block text-sm font-medium text-zinc-800 dark:text-zinc-200';
export const hintClass = 'mt-1 text-xs text-zinc-600 dark:text-zinc-400';
export const panelClass = 'min-w-0 space-y-4 rounded-xl border border-zinc-200 p-4 sm:p-5 dark:border-zinc-800';
