// Usage beside downloads (lib/registry/skill-usage.ts): runs on this registry that used the
// skill in the last 30 days, and the share of its calls that failed, per unique caller.
import type { SkillUsage } from '@/lib/registry';

const percent = (share: number) => (share > 0 && share < 0.01 ? '<1%' : `${Math.round(share * 100)}%`);

export function SkillUsagePanel({ usage, downloads }: { usage: SkillUsage | null; downloads: number }) {
  if (!usage) return null;
  return (
    <section aria-labelledby="usage-heading" className="rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="skill-usage">
      <h2 id="usage-heading" className="font-semibold">
        Usage <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">last {usage.days} days</span>
      </h2>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-center">
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">runs</dt>
          <dd className="font-semibold tabular-nums" data-testid="usage-runs">
            {usage.runs}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">calls failed</dt>
          <dd className="font-semibold tabular-nums" data-testid="usage-failed">
            {usage.failureShare === null ? '—' : percent(usage.failureShare)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">downloads</dt>
          <dd className="font-semibold tabular-nums">{downloads}</dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
        From runs and MCP calls on this registry: {usage.callers} {usage.callers === 1 ? 'caller' : 'callers'}, each counted once however often it
        called.
      </p>
    </section>
  );
}
