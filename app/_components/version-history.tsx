// A skill's versions, newest first: yanked ones struck through, deprecated ones marked
// with their message, yanked ones with their reason, the dist-tags; with `manage`, each
// version has its controls (yank, deprecate, dist-tags) for whoever may publish there.
import Link from 'next/link';
import { VersionControls } from '../(registry)/skills/[scope]/[name]/version-controls';

type Version = { version: string; createdAt: Date; yanked: boolean; yankReason?: string | null; deprecated: string | null; downloads: number };

export function VersionHistory({
  scope,
  name,
  current,
  versions,
  distTags,
  manage = false,
}: {
  scope: string;
  name: string;
  current: string;
  versions: Version[];
  distTags: Record<string, string>;
  manage?: boolean;
}) {
  const tagsOf = (v: string) =>
    Object.entries(distTags)
      .filter(([, tv]) => tv === v)
      .map(([t]) => t);
  return (
    <ul className="space-y-1 text-xs" data-testid="versions">
      {versions.slice(0, 30).map((v) => (
        <li key={v.version} className="flex flex-wrap items-baseline gap-x-2">
          <Link
            href={`/skills/${scope}/${name}?version=${encodeURIComponent(v.version)}`}
            className={`inline-block py-1 ${v.yanked ? 'text-zinc-600 line-through dark:text-zinc-400' : ''} ${v.version === current ? 'font-semibold' : ''} hover:underline`}
          >
            {v.version}
          </Link>
          {tagsOf(v.version).map((t) => (
            <span key={t} className="rounded bg-emerald-100 px-1 text-[10px] text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200">
              {t}
            </span>
          ))}
          {v.yanked && (
            <span className="min-w-0 break-words text-red-700 dark:text-red-400" data-testid="version-yanked">
              yanked{v.yankReason ? `: ${v.yankReason.slice(0, 200)}` : ''}
            </span>
          )}
          {v.deprecated && (
            <span className="min-w-0 break-words text-amber-800 dark:text-amber-400" data-testid="version-deprecated">
              deprecated: {v.deprecated.slice(0, 200)}
            </span>
          )}
          <span className="text-zinc-600 dark:text-zinc-400">· {v.createdAt.toISOString().slice(0, 10)}</span>
          {manage && <VersionControls scope={scope} name={name} v={v} tags={tagsOf(v.version)} />}
        </li>
      ))}
      {versions.length > 30 && <li className="text-zinc-500">… {versions.length - 30} older</li>}
    </ul>
  );
}
