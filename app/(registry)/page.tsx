import type { Metadata } from 'next';
import Link from 'next/link';
import { serverContext } from '@/lib/server';
import { COUNT_CAP, searchSkills } from '@/lib/registry/search-skills';
import { currentUser } from '@/lib/auth/current-user';
import { privateScopesOf } from '@/lib/authz';
import { FORMAT_LABELS, FormatBadge } from '../_components/format-badge';
import { LockIcon } from '../_components/lock-icon';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: { absolute: 'Skillyard — skills for AI agents' } };

const FORMATS = ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'];
const SORTS = { relevance: 'Relevance', downloads: 'Downloads', recent: 'Recent', stars: 'Stars' } as const;
type Sort = keyof typeof SORTS;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
/** a count search stopped at its cap reads "1,000+" */
const count = (n: number, capped = n > COUNT_CAP) => (capped ? `${COUNT_CAP.toLocaleString('en-US')}+` : n.toLocaleString('en-US'));
/** A format's count: past the cap, with words, it comes from the first 1,001 matches (a
 *  lower bound, "212+"); browsing, each format is capped on its own ("1,000+"). */
const formatCount = (n: number, lowerBound: boolean) =>
  lowerBound && n === 0 ? null : <span className="tabular-nums">({lowerBound ? `${n.toLocaleString('en-US')}+` : count(n)})</span>;
const pluralCount = (n: number, capped: boolean, one: string, many = `${one}s`) => `${count(n, capped)} ${n === 1 && !capped ? one : many}`;

function hrefWith(current: { q: string; format?: string; sort: Sort }, patch: Partial<{ q: string; format: string | undefined; sort: Sort }>) {
  const next = { ...current, ...patch };
  const p = new URLSearchParams();
  if (next.q) p.set('q', next.q);
  if (next.format) p.set('format', next.format);
  if (next.sort !== 'relevance') p.set('sort', next.sort);
  const s = p.toString();
  return s ? `/?${s}` : '/';
}

const pill = (active: boolean) =>
  `inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm ${
    active ? 'border-emerald-700 bg-emerald-700 text-white' : 'border-zinc-300 text-zinc-800 hover:border-emerald-700 dark:border-zinc-700 dark:text-zinc-200'
  }`;

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const q = typeof params.q === 'string' ? params.q.slice(0, 100) : '';
  const format = typeof params.format === 'string' && FORMATS.includes(params.format) ? params.format : undefined;
  const sort: Sort = typeof params.sort === 'string' && params.sort in SORTS ? (params.sort as Sort) : 'relevance';
  const current = { q, format, sort };
  const { db } = serverContext();
  const user = await currentUser().catch(() => null);
  // one query: the page, the total and the counts per format (private skills of the
  // viewer's own scope and teams included)
  const found = await searchSkills(db, { q, format, sort, perPage: 60, facets: true, viewerScopes: await privateScopesOf(db, user?.id) });
  const all = { total: found.allFormatsTotal ?? 0, capped: found.allFormatsTotalIsCapped ?? false };
  const counts = new Map(FORMATS.map((f) => [f, found.formatCounts?.[f] ?? 0]));
  const skills = found.hits;
  const tags = [...new Set(skills.flatMap((s) => s.tags))].slice(0, 6);
  const corrected = Object.values(found.corrections).flat().slice(0, 3);

  return (
    <div className="min-w-0 space-y-8">
      <section className="space-y-4">
        <h1 className="text-3xl font-semibold tracking-tight">Skills for AI agents</h1>
        <p className="max-w-2xl text-zinc-700 dark:text-zinc-300">
          Browse skills in every common format, read their tools and instructions, and try them in the playground.
        </p>
        <form action="/" className="flex max-w-2xl min-w-0 flex-wrap gap-2" role="search">
          <input
            type="search"
            name="q"
            defaultValue={q}
            placeholder="Search skills…"
            aria-label="Search skills"
            className="min-w-0 flex-1 basis-48 rounded-lg border border-zinc-400 bg-white px-3 py-2 text-sm outline-none focus:border-emerald-600 dark:border-zinc-600 dark:bg-zinc-900"
          />
          {format && <input type="hidden" name="format" value={format} />}
          {sort !== 'relevance' && <input type="hidden" name="sort" value={sort} />}
          <button className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800">Search</button>
        </form>
        <nav aria-label="Format" className="flex flex-wrap gap-2" data-testid="format-filter">
          <Link href={hrefWith(current, { format: undefined })} aria-current={!format ? 'page' : undefined} className={pill(!format)}>
            All formats <span className="tabular-nums">({count(all.total, all.capped)})</span>
          </Link>
          {FORMATS.map((f) => (
            <Link key={f} href={hrefWith(current, { format: f })} aria-current={format === f ? 'page' : undefined} className={pill(format === f)} data-format={f}>
              {FORMAT_LABELS[f]} {formatCount(counts.get(f) ?? 0, found.formatCountsAreLowerBounds ?? false)}
            </Link>
          ))}
        </nav>
      </section>

      <section aria-labelledby="results-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="results-heading" className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="skill-count">
            {pluralCount(found.total, found.totalIsCapped, 'skill')}
            {format ? ` in ${FORMAT_LABELS[format]}` : ''}
            {q ? ` matching “${q}”` : ''}
          </h2>
          <nav aria-label="Sort" className="flex flex-wrap items-center gap-1 text-sm" data-testid="sort">
            <span className="text-zinc-700 dark:text-zinc-300">Sort:</span>
            {(Object.keys(SORTS) as Sort[]).map((s) => (
              <Link
                key={s}
                href={hrefWith(current, { sort: s })}
                aria-current={sort === s ? 'page' : undefined}
                className={`rounded px-2 py-0.5 ${sort === s ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900' : 'text-zinc-800 underline-offset-2 hover:underline dark:text-zinc-200'}`}
              >
                {SORTS[s]}
              </Link>
            ))}
          </nav>
        </div>
        {corrected.length > 0 && skills.length > 0 && (
          <p className="mb-3 text-sm text-zinc-700 dark:text-zinc-300" data-testid="corrections">
            Also searched for: {corrected.join(', ')}
          </p>
        )}
        {skills.length === 0 ? (
          <div data-testid="empty-state" className="space-y-3 rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            <p className="font-medium">No skills found.</p>
            <ul className="flex flex-wrap justify-center gap-2 text-sm" aria-label="Suggestions">
              {format && (
                <li>
                  <Link href={hrefWith(current, { format: undefined })} className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                    Search every format{all.total ? ` (${pluralCount(all.total, all.capped, 'match', 'matches')})` : ''}
                  </Link>
                </li>
              )}
              <li>
                <Link href="/publish" className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                  Publish a skill
                </Link>
              </li>
              {q && (
                <li>
                  <Link href={hrefWith(current, { q: '' })} className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                    Clear the search
                  </Link>
                </li>
              )}
              {[...corrected, ...['text', 'json', 'git', 'date'].filter((t) => !corrected.includes(t))].slice(0, 5).map((t) => (
                <li key={t}>
                  <Link href={hrefWith({ q: '', sort }, { q: t })} className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                    Try “{t}”
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {skills.map((s) => (
              <li key={`${s.scope}/${s.name}`} data-testid="skill-card" className="min-w-0">
                <Link
                  href={`/skills/${s.scope}/${s.name}`}
                  className="flex h-full min-w-0 flex-col gap-2 rounded-xl border border-zinc-200 p-4 transition hover:border-emerald-600 hover:shadow-sm dark:border-zinc-800 dark:hover:border-emerald-600"
                >
                  <div className="flex min-w-0 items-center justify-between gap-2">
                    <span className="truncate font-medium">
                      <span className="text-zinc-600 dark:text-zinc-400">@{s.scope}/</span>
                      {s.name}
                    </span>
                    <FormatBadge format={s.format} />
                  </div>
                  <p className="line-clamp-3 text-sm break-words text-zinc-700 dark:text-zinc-300">{s.description}</p>
                  <div className="mt-auto flex flex-wrap gap-3 text-xs text-zinc-600 dark:text-zinc-400">
                    {s.version && <span>v{s.version}</span>}
                    <span>{plural(s.toolCount, 'tool')}</span>
                    <span>{plural(s.downloads, 'download')}</span>
                    {s.stars > 0 && <span>{plural(s.stars, 'star')}</span>}
                    {s.tokenGated && (
                      <span title="Some tools need a login to unlock" className="inline-flex items-center gap-1">
                        <LockIcon /> needs a login
                      </span>
                    )}
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {tags.length > 0 && skills.length > 0 && (
          <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
            Tags:{' '}
            {tags.map((t, i) => (
              <span key={t}>
                {i > 0 && ' · '}
                <Link href={hrefWith(current, { q: t })} className="inline-block py-1 underline">
                  {t}
                </Link>
              </span>
            ))}
          </p>
        )}
      </section>
    </div>
  );
}
