import Link from 'next/link';
import { serverContext } from '@/lib/server';
import { searchSkills, SEARCH_SORTS, type SearchSort } from '@/lib/registry/search-skills';
import { FormatBadge } from '../_components/format-badge';
import { LockIcon } from '../_components/lock-icon';

export const dynamic = 'force-dynamic';

const FORMATS = ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'];

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const q = typeof params.q === 'string' ? params.q : '';
  const format = typeof params.format === 'string' && FORMATS.includes(params.format) ? params.format : undefined;
  const sort = typeof params.sort === 'string' && (SEARCH_SORTS as readonly string[]).includes(params.sort) ? (params.sort as SearchSort) : undefined;
  const page = Math.min(Math.max(Number(typeof params.page === 'string' ? params.page : 1) || 1, 1), 500);
  const result = await searchSkills(serverContext().db, { q, format, sort, page, perPage: 24 });
  const skills = result.hits;
  const pages = Math.max(1, Math.ceil(result.total / result.perPage));
  const pageHref = (n: number) => {
    const u = new URLSearchParams();
    if (q) u.set('q', q);
    if (format) u.set('format', format);
    if (sort) u.set('sort', sort);
    if (n > 1) u.set('page', String(n));
    return `/${u.size ? `?${u}` : ''}`;
  };
  const fixes = Object.entries(result.corrections);

  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">Skills for AI agents</h1>
        <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
          Browse skills in every common format, read their tools and instructions, and try them in the playground.
        </p>
        <form action="/" className="flex max-w-2xl flex-wrap gap-2" role="search">
          <input
            name="q"
            defaultValue={q}
            placeholder="Search skills…"
            aria-label="Search skills"
            className="flex-1 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm outline-none focus:border-emerald-600 dark:border-zinc-700 dark:bg-zinc-900"
          />
          <select
            name="format"
            defaultValue={format ?? ''}
            aria-label="Format"
            className="rounded-lg border border-zinc-300 bg-white px-2 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="">All formats</option>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <select
            name="sort"
            defaultValue={sort ?? ''}
            aria-label="Sort"
            className="rounded-lg border border-zinc-300 bg-white px-2 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="">{q ? 'Best match' : 'Most downloaded'}</option>
            <option value="downloads">Most downloaded</option>
            <option value="recent">Recently published</option>
            <option value="stars">Most starred</option>
          </select>
          <button className="rounded-lg bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700">Search</button>
        </form>
      </section>

      <section aria-label="Skills">
        <p className="mb-3 text-sm text-zinc-500" data-testid="skill-count">
          {result.total.toLocaleString('en-US')}
          {result.totalIsCapped ? '+' : ''} {result.total === 1 ? 'skill' : 'skills'}
          {q ? ` matching “${q}”` : ''}
          {pages > 1 ? ` · page ${result.page} of ${pages.toLocaleString('en-US')}` : ''}
        </p>
        {fixes.length > 0 && (
          <p className="mb-3 text-xs text-zinc-500" data-testid="corrections">
            Also searched: {fixes.map(([w, alts]) => `${w} → ${alts.join(', ')}`).join('; ')}
          </p>
        )}
        {skills.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-500 dark:border-zinc-700">
            {q ? (
              <>
                No skills match “{q}”. Try fewer or other words{format ? ', or all formats' : ''}.{' '}
              </>
            ) : (
              <>No skills yet. </>
            )}
            <Link href="/publish" className="text-emerald-700 underline dark:text-emerald-400">
              Publish one
            </Link>
            .
          </p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {skills.map((s) => (
              <li key={`${s.scope}/${s.name}`} data-testid="skill-card">
                <Link
                  href={`/skills/${s.scope}/${s.name}`}
                  className="flex h-full flex-col gap-2 rounded-xl border border-zinc-200 p-4 transition hover:border-emerald-500 hover:shadow-sm dark:border-zinc-800 dark:hover:border-emerald-600"
                >
                  <div className="flex items-center justify-between gap-2">
                    <span className="truncate font-medium">
                      <span className="text-zinc-500">@{s.scope}/</span>
                      {s.name}
                    </span>
                    <FormatBadge format={s.format} />
                  </div>
                  <p className="line-clamp-3 text-sm text-zinc-600 dark:text-zinc-400">{s.description}</p>
                  <div className="mt-auto flex gap-3 text-xs text-zinc-500">
                    {s.version && <span>v{s.version}</span>}
                    <span>
                      {s.toolCount} {s.toolCount === 1 ? 'tool' : 'tools'}
                    </span>
                    <span>{s.downloads.toLocaleString('en-US')} downloads</span>
                    {s.tokenGated && (
                      <span title="Some tools need a login to unlock" className="inline-flex items-center gap-1">
                        <LockIcon /> token-gated
                      </span>
                    )}
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-4 text-sm">
            {result.page > 1 ? (
              <Link href={pageHref(result.page - 1)} className="rounded-lg border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900">
                ← Previous
              </Link>
            ) : (
              <span className="px-3 py-1.5 text-zinc-400">← Previous</span>
            )}
            <span className="text-zinc-500">
              {result.page} / {pages.toLocaleString('en-US')}
            </span>
            {result.page < pages ? (
              <Link href={pageHref(result.page + 1)} className="rounded-lg border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900">
                Next →
              </Link>
            ) : (
              <span className="px-3 py-1.5 text-zinc-400">Next →</span>
            )}
          </nav>
        )}
      </section>
    </div>
  );
}
