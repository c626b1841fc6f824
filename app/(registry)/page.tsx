import type { Metadata } from 'next';
import Link from 'next/link';
import { SearchBox } from './_components/search-box';
import { serverContext } from '@/lib/server';
import { COUNT_CAP, searchSkills, starredBy } from '@/lib/registry';
import { currentUser } from '@/lib/session';
import { privateScopesOf } from '@/lib/authz';
import { FORMAT_LABELS, FormatBadge } from '../_components/format-badge';
import { LockIcon } from '../_components/lock-icon';
import { StarButton } from '../_components/star-button';

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

const PER_PAGE = 24;
const MAX_PAGE = 500; // lib/registry/search-skills pages no further

/** Everything the list depends on; every link keeps it in the URL. */
type View = { q: string; format?: string; sort: Sort; tag?: string; gated: boolean; signed: boolean; page: number; perPage: number };

function hrefWith(current: View, patch: Partial<View>) {
  // any change but the page itself starts again at page 1
  const next: View = { ...current, page: 1, ...patch };
  const p = new URLSearchParams();
  if (next.q) p.set('q', next.q);
  if (next.format) p.set('format', next.format);
  if (next.tag) p.set('tag', next.tag);
  if (next.gated) p.set('gated', '1');
  if (next.signed) p.set('signed', '1');
  if (next.sort !== 'relevance') p.set('sort', next.sort);
  if (next.perPage !== PER_PAGE) p.set('perPage', String(next.perPage));
  if (next.page > 1) p.set('page', String(next.page));
  const s = p.toString();
  return s ? `/?${s}` : '/';
}

const str = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);
const int = (v: string | string[] | undefined, min: number, max: number, fallback: number) => {
  const n = Number(str(v));
  return Number.isInteger(n) ? Math.min(Math.max(n, min), max) : fallback;
};

/** Page numbers to link around the current one: 1 … 4 5 [6] 7 8 … 20 */
function pageWindow(page: number, last: number): Array<number | 'gap'> {
  const shown = new Set([1, last, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= last));
  const out: Array<number | 'gap'> = [];
  let prev = 0;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (n - prev > 1) out.push('gap');
    out.push(n);
    prev = n;
  }
  return out;
}

const pill = (active: boolean) =>
  `inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm ${
    active ? 'border-emerald-700 bg-emerald-700 text-white' : 'border-zinc-300 text-zinc-800 hover:border-emerald-700 dark:border-zinc-700 dark:text-zinc-200'
  }`;

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const q = str(params.q)?.slice(0, 100) ?? '';
  const format = str(params.format) && FORMATS.includes(str(params.format)!) ? str(params.format) : undefined;
  const sort: Sort = str(params.sort) && str(params.sort)! in SORTS ? (str(params.sort) as Sort) : 'relevance';
  const tag = str(params.tag)?.trim().slice(0, 64) || undefined;
  const gated = str(params.gated) === '1';
  const signed = str(params.signed) === '1';
  const perPage = int(params.perPage, 1, 100, PER_PAGE);
  const page = int(params.page, 1, MAX_PAGE, 1);
  const current: View = { q, format, sort, tag, gated, signed, page, perPage };
  const { db } = serverContext();
  const user = await currentUser().catch(() => null);
  // one query: the page, the total and the counts per format (private skills of the
  // viewer's own scope and teams included)
  const found = await searchSkills(db, {
    q,
    format,
    sort,
    tag,
    gated: gated || undefined,
    signed: signed || undefined,
    page,
    perPage,
    facets: true,
    viewerScopes: await privateScopesOf(db, user?.id),
  });
  const all = { total: found.allFormatsTotal ?? 0, capped: found.allFormatsTotalIsCapped ?? false };
  const counts = new Map(FORMATS.map((f) => [f, found.formatCounts?.[f] ?? 0]));
  const skills = found.hits;
  const starred = user ? await starredBy(db, user.id, skills) : new Set<string>();
  const here = hrefWith(current, { page });
  const tags = [...new Set(skills.flatMap((s) => s.tags))].filter((t) => t !== tag).slice(0, 6);
  const corrected = Object.values(found.corrections).flat().slice(0, 3);
  // a capped count ("1,000+") does not say where the list ends: a full page offers the next one
  const counted = Math.max(1, Math.ceil(found.total / perPage));
  const lastPage = Math.min(found.totalIsCapped && skills.length === perPage ? Math.max(counted, page + 1) : counted, MAX_PAGE);
  const from = (page - 1) * perPage + 1;
  const to = from + skills.length - 1;
  const filtered = gated || signed || !!tag;

  return (
    <div className="min-w-0 space-y-8">
      <section className="space-y-4">
        <h1 className="text-3xl font-semibold tracking-tight">Skills for AI agents</h1>
        <p className="max-w-2xl text-zinc-700 dark:text-zinc-300">Browse skills in every common format, read their tools and instructions, and try them in the playground.</p>
        <form action="/" className="flex max-w-2xl min-w-0 flex-wrap gap-2" role="search">
          <SearchBox key={q} defaultValue={q} />
          {format && <input type="hidden" name="format" value={format} />}
          {tag && <input type="hidden" name="tag" value={tag} />}
          {gated && <input type="hidden" name="gated" value="1" />}
          {signed && <input type="hidden" name="signed" value="1" />}
          {sort !== 'relevance' && <input type="hidden" name="sort" value={sort} />}
          {perPage !== PER_PAGE && <input type="hidden" name="perPage" value={perPage} />}
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
        <nav aria-label="Filters" className="flex flex-wrap gap-2" data-testid="filters">
          <Link href={hrefWith(current, { gated: !gated })} aria-current={gated ? 'true' : undefined} className={pill(gated)} data-filter="gated">
            <LockIcon /> Has locked tools{gated && <span aria-hidden="true"> ×</span>}
          </Link>
          <Link href={hrefWith(current, { signed: !signed })} aria-current={signed ? 'true' : undefined} className={pill(signed)} data-filter="signed">
            Signed{signed && <span aria-hidden="true"> ×</span>}
          </Link>
          {tag && (
            <Link href={hrefWith(current, { tag: undefined })} aria-current="true" className={pill(true)} data-filter="tag" aria-label={`Tag ${tag}: remove`}>
              Tag: {tag}
              <span aria-hidden="true"> ×</span>
            </Link>
          )}
        </nav>
      </section>

      <section aria-labelledby="results-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="results-heading" className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="skill-count">
            {skills.length > 0 && (found.totalIsCapped || found.total > skills.length) ? `${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ` : ''}
            {pluralCount(found.total, found.totalIsCapped, 'skill')}
            {format ? ` in ${FORMAT_LABELS[format]}` : ''}
            {tag ? ` tagged “${tag}”` : ''}
            {gated ? ', needing a login' : ''}
            {signed ? ', signed' : ''}
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
        {skills.length === 0 && found.total > 0 ? (
          <p data-testid="past-the-end" className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            Page {page} is past the end.{' '}
            <Link href={hrefWith(current, { page: lastPage })} className="underline">
              Go to page {lastPage}
            </Link>
            .
          </p>
        ) : skills.length === 0 ? (
          <div
            data-testid="empty-state"
            className="space-y-3 rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
          >
            <p className="font-medium">No skills found.</p>
            <ul className="flex flex-wrap justify-center gap-2 text-sm" aria-label="Suggestions">
              {format && (
                <li>
                  <Link
                    href={hrefWith(current, { format: undefined })}
                    className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700"
                  >
                    Search every format{all.total ? ` (${pluralCount(all.total, all.capped, 'match', 'matches')})` : ''}
                  </Link>
                </li>
              )}
              <li>
                <Link href="/publish" className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                  Publish a skill
                </Link>
              </li>
              {filtered && (
                <li>
                  <Link
                    href={hrefWith(current, { tag: undefined, gated: false, signed: false })}
                    className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700"
                  >
                    Clear the filters
                  </Link>
                </li>
              )}
              {q && (
                <li>
                  <Link href={hrefWith(current, { q: '' })} className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700">
                    Clear the search
                  </Link>
                </li>
              )}
              {[...corrected, ...['text', 'json', 'git', 'date'].filter((t) => !corrected.includes(t))].slice(0, 5).map((t) => (
                <li key={t}>
                  <Link
                    href={hrefWith({ ...current, q: '', format: undefined, tag: undefined, gated: false, signed: false }, { q: t })}
                    className="inline-block rounded-full border border-zinc-300 px-3 py-1 hover:border-emerald-700 dark:border-zinc-700"
                  >
                    Try “{t}”
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {skills.map((s) => (
              <li
                key={`${s.scope}/${s.name}`}
                data-testid="skill-card"
                className="relative flex h-full min-w-0 flex-col gap-2 rounded-xl border border-zinc-200 p-4 transition focus-within:border-emerald-600 hover:border-emerald-600 hover:shadow-sm dark:border-zinc-800 dark:hover:border-emerald-600"
              >
                <div className="flex min-w-0 items-center justify-between gap-2">
                  {/* the name's link covers the whole card (after:inset-0); the star sits above it */}
                  <Link href={`/skills/${s.scope}/${s.name}`} className="truncate font-medium outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline">
                    <span className="text-zinc-600 dark:text-zinc-400">@{s.scope}/</span>
                    {s.name}
                  </Link>
                  <FormatBadge format={s.format} />
                </div>
                <p className="line-clamp-3 text-sm break-words text-zinc-700 dark:text-zinc-300">{s.description}</p>
                <div className="mt-auto flex flex-wrap items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400">
                  {s.version && <span>v{s.version}</span>}
                  <span>{plural(s.toolCount, 'tool')}</span>
                  <span>{plural(s.downloads, 'download')}</span>
                  {s.tokenGated && (
                    <span
                      title="Some tools unlock with a connected account or a token another tool issues: the skill's page says which"
                      className="inline-flex items-center gap-1"
                      data-testid="card-locked-tools"
                    >
                      <LockIcon /> has locked tools
                    </span>
                  )}
                  {s.signed && <span>signed</span>}
                  {s.visibility === 'private' && (
                    <span
                      data-testid="card-private"
                      title="Only members of its scope can see it"
                      className="rounded bg-zinc-200 px-1.5 font-medium text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100"
                    >
                      private
                    </span>
                  )}
                  <span className="ml-auto">
                    <StarButton scope={s.scope} name={s.name} stars={s.stars} starred={starred.has(`${s.scope}/${s.name}`)} signedIn={!!user} next={here} compact />
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
        {lastPage > 1 && skills.length > 0 && (
          <nav aria-label="Pages" className="mt-6 flex flex-wrap items-center justify-center gap-1 text-sm" data-testid="pager">
            {page > 1 ? (
              <Link href={hrefWith(current, { page: page - 1 })} rel="prev" className="rounded px-3 py-1 text-zinc-800 hover:underline dark:text-zinc-200" data-testid="prev-page">
                ← Previous
              </Link>
            ) : (
              <span className="px-3 py-1 text-zinc-500" aria-hidden="true">
                ← Previous
              </span>
            )}
            {pageWindow(page, lastPage).map((n, i) =>
              n === 'gap' ? (
                <span key={`gap-${i}`} className="px-1 text-zinc-500" aria-hidden="true">
                  …
                </span>
              ) : (
                <Link
                  key={n}
                  href={hrefWith(current, { page: n })}
                  aria-current={n === page ? 'page' : undefined}
                  aria-label={`Page ${n}`}
                  className={`min-w-8 rounded px-2 py-1 text-center tabular-nums ${n === page ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900' : 'text-zinc-800 hover:underline dark:text-zinc-200'}`}
                >
                  {n}
                </Link>
              ),
            )}
            {page < lastPage ? (
              <Link href={hrefWith(current, { page: page + 1 })} rel="next" className="rounded px-3 py-1 text-zinc-800 hover:underline dark:text-zinc-200" data-testid="next-page">
                Next →
              </Link>
            ) : (
              <span className="px-3 py-1 text-zinc-500" aria-hidden="true">
                Next →
              </span>
            )}
          </nav>
        )}
        {tags.length > 0 && skills.length > 0 && (
          <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
            Tags:{' '}
            {tags.map((t, i) => (
              <span key={t}>
                {i > 0 && ' · '}
                <Link href={hrefWith(current, { tag: t })} className="inline-block py-1 underline">
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
