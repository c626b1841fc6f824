// What the shown version may do, in plain words (lib/trust), and what changes from another
// version ("1.3.0 adds network access to api.example.com"): by default the version before
// it; any other through the "Compare with" form (?from=). The signed statement's command
// closes the section.
import type { PermissionFact } from '@/lib/trust';
import type { VersionPermissionDiff } from '@/lib/registry';

type Props = {
  ref_: string;
  version: string;
  facts: PermissionFact[];
  diff: VersionPermissionDiff | null;
  /** versions to compare with (newest first), the shown one excluded */
  others: string[];
  base: string;
  /** the ?version= the page was asked for (kept by the compare form) */
  versionParam: string | null;
};

export function PermissionsPanel({ ref_, version, facts, diff, others, base, versionParam }: Props) {
  const statementHref = `/api/v1/skills/${ref_.slice(1)}/${encodeURIComponent(version)}/statement`;
  return (
    <section aria-labelledby="permissions-heading" className="space-y-3" data-testid="permissions">
      <h2 id="permissions-heading" className="text-lg font-semibold">
        Permissions <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">of {version}</span>
      </h2>
      <div className="space-y-4 rounded-xl border border-zinc-200 p-4 text-sm sm:p-5 dark:border-zinc-800">
        {facts.length === 0 ? (
          <p data-testid="permissions-none">It declares no permissions: no network, no secrets, no storage, no subprocesses, no other tools.</p>
        ) : (
          <>
            <p>The runtime lets this version do only what it declares. It may:</p>
            <ul className="list-disc space-y-1 pl-5 break-words" data-testid="permission-facts">
              {facts.map((f) => (
                <li key={`${f.kind}:${f.value}`} data-kind={f.kind}>
                  {f.words}
                </li>
              ))}
            </ul>
          </>
        )}
        {diff && (
          <div className="space-y-2 border-t border-zinc-200 pt-3 dark:border-zinc-800" data-testid="permission-diff">
            <h3 className="font-medium">
              Since {diff.from}
              {diff.widens && (
                <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-950 dark:bg-amber-900 dark:text-amber-50" data-testid="permission-widens">
                  asks for more
                </span>
              )}
            </h3>
            {diff.sentences.length === 0 ? (
              <p data-testid="permission-diff-none">No change in permissions from {diff.from} to {diff.to}.</p>
            ) : (
              <ul className="space-y-1 break-words" data-testid="permission-diff-lines">
                {diff.added.map((f) => (
                  <li key={`+${f.kind}:${f.value}`} className="text-amber-950 dark:text-amber-100">
                    <span aria-hidden="true">+ </span>
                    {diff.to} adds {f.words}
                  </li>
                ))}
                {diff.removed.map((f) => (
                  <li key={`-${f.kind}:${f.value}`}>
                    <span aria-hidden="true">− </span>
                    {diff.to} drops {f.words}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {others.length > 0 && (
          <form method="get" action={base} className="flex flex-wrap items-end gap-2" data-testid="permission-compare">
            {versionParam && <input type="hidden" name="version" value={versionParam} />}
            <label className="flex flex-col gap-1 text-xs font-medium">
              Compare with
              <select name="from" defaultValue={diff?.from ?? others[0]} className="rounded border border-zinc-400 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900">
                {others.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="rounded border border-zinc-400 px-3 py-1 text-sm hover:border-emerald-700 dark:border-zinc-600">
              Show changes
            </button>
          </form>
        )}
        <p className="border-t border-zinc-200 pt-3 text-xs text-zinc-700 dark:border-zinc-800 dark:text-zinc-300" data-testid="statement-hint">
          The registry signs a statement binding these permissions, the scan verdict and the package&rsquo;s digest. Check it with{' '}
          <code className="font-mono break-all">skillyard verify {ref_}@{version}</code>, or read{' '}
          <a href={statementHref} className="underline">
            the statement
          </a>
          .
        </p>
      </div>
    </section>
  );
}
