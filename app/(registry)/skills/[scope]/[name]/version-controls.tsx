// The controls under one version of the version list, for whoever may publish into the
// scope: yank (with a reason) or unyank, deprecate (with a message) or undeprecate, point
// a dist-tag at it, remove the tags that point at it (all but latest).
import { VersionActionForm } from './version-action-form';

type Version = { version: string; yanked: boolean; deprecated: string | null };

const field = 'min-w-0 flex-1 rounded border border-zinc-400 bg-white px-2 py-1 text-xs dark:border-zinc-600 dark:bg-zinc-900';
const btn = 'rounded border border-zinc-400 px-2 py-1 text-xs font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800';
const danger = 'rounded border border-red-400 px-2 py-1 text-xs font-medium text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950';

export function VersionControls({ scope, name, v, tags }: { scope: string; name: string; v: Version; tags: string[] }) {
  const common = { scope, name, version: v.version };
  const id = (what: string) => `v-${v.version.replace(/[^A-Za-z0-9]/g, '-')}-${what}`;
  return (
    <details className="basis-full" data-testid={`manage-${v.version}`}>
      <summary className="cursor-pointer py-1 text-xs text-zinc-700 underline dark:text-zinc-300">
        Manage <span className="sr-only">version {v.version}</span>
      </summary>
      <div className="mt-2 space-y-3 rounded-lg border border-zinc-200 p-2 dark:border-zinc-800">
        {v.yanked ? (
          <VersionActionForm op="unyank" {...common} testId="unyank-form">
            <button type="submit" className={btn}>
              Unyank {v.version}
            </button>
          </VersionActionForm>
        ) : (
          <VersionActionForm op="yank" {...common} testId="yank-form">
            <label htmlFor={id('reason')} className="basis-full text-xs text-zinc-700 dark:text-zinc-300">
              Yank reason (shown to everyone)
            </label>
            <input id={id('reason')} name="reason" maxLength={500} placeholder="e.g. breaks on empty input" className={field} />
            <button type="submit" className={danger}>
              Yank
            </button>
          </VersionActionForm>
        )}
        {v.deprecated ? (
          <VersionActionForm op="undeprecate" {...common} testId="undeprecate-form">
            <button type="submit" className={btn}>
              Undeprecate {v.version}
            </button>
          </VersionActionForm>
        ) : (
          <VersionActionForm op="deprecate" {...common} testId="deprecate-form">
            <label htmlFor={id('message')} className="basis-full text-xs text-zinc-700 dark:text-zinc-300">
              Deprecation message
            </label>
            <input id={id('message')} name="message" required maxLength={1000} placeholder="e.g. use 2.x instead" className={field} />
            <button type="submit" className={btn}>
              Deprecate
            </button>
          </VersionActionForm>
        )}
        {!v.yanked && (
          <VersionActionForm op="tag" {...common} testId="tag-form">
            <label htmlFor={id('tag')} className="basis-full text-xs text-zinc-700 dark:text-zinc-300">
              Point a dist-tag here
            </label>
            <input id={id('tag')} name="tag" required maxLength={32} placeholder="next" className={field} />
            <button type="submit" className={btn}>
              Set tag
            </button>
          </VersionActionForm>
        )}
        {tags
          .filter((t) => t !== 'latest')
          .map((t) => (
            <VersionActionForm key={t} op="untag" scope={scope} name={name} tag={t} testId={`untag-${t}`}>
              <button type="submit" className={btn}>
                Remove tag {t}
              </button>
            </VersionActionForm>
          ))}
      </div>
    </details>
  );
}
