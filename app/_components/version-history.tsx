// A skill's versions, newest first: yanked ones struck through, deprecated ones marked
// with their message, the dist-tags, and the changelog of the version shown.
import Link from 'next/link';

type Version = { version: string; createdAt: Date; yanked: boolean; deprecated: string | null; downloads: number };

export function VersionHistory({
  scope,
  name,
  current,
  versions,
  distTags,
}: {
  scope: string;
  name: string;
  current: string;
  versions: Version[];
  distTags: Record<string, string>;
}) {
  const tagsOf = (v: string) => Object.entries(distTags).filter(([, tv]) => tv === v).map(([t]) => t);
  return (
    <ul className="space-y-1 text-xs" data-testid="versions">
      {versions.slice(0, 30).map((v) => (
        <li key={v.version} className="flex flex-wrap items-baseline gap-x-2">
          <Link
            href={`/skills/${scope}/${name}?version=${encodeURIComponent(v.version)}`}
            className={`${v.yanked ? 'text-zinc-400 line-through' : ''} ${v.version === current ? 'font-semibold' : ''} hover:underline`}
          >
            {v.version}
          </Link>
          {tagsOf(v.version).map((t) => (
            <span key={t} className="rounded bg-emerald-100 px-1 text-[10px] text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200">
              {t}
            </span>
          ))}
          {v.yanked && <span className="text-red-700 dark:text-red-400">yanked</span>}
          {v.deprecated && (
            <span className="min-w-0 break-words text-amber-800 dark:text-amber-400" data-testid="version-deprecated">
              deprecated: {v.deprecated.slice(0, 200)}
            </span>
          )}
          <span className="text-zinc-500">· {v.createdAt.toISOString().slice(0, 10)}</span>
        </li>
      ))}
      {versions.length > 30 && <li className="text-zinc-500">… {versions.length - 30} older</li>}
    </ul>
  );
}
