// Registry search: Postgres full text over the weighted document (name and tool names
// > description and tags > instructions), typo tolerance with pg_trgm (each query word
// is widened with the nearest known words, and skill names are matched by similarity),
// filters, sorts, paging, a total count and counts per format. Public skills with a latest
// version, plus every skill of the scopes the caller may see privately (`viewerScopes`:
// their own scope and their teams', from lib/authz privateScopesOf).
import 'server-only';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';

export const SEARCH_SORTS = ['relevance', 'downloads', 'recent', 'stars'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export type SearchQuery = {
  q?: string;
  format?: string;
  tag?: string;
  gated?: boolean;
  signed?: boolean;
  scope?: string;
  sort?: SearchSort;
  page?: number;
  perPage?: number;
  /** scopes whose private and unlisted skills the caller sees (lib/authz privateScopesOf) */
  viewerScopes?: string[];
  /** also count the matches per format, ignoring `format` (the home page's pills) */
  facets?: boolean;
};

export type SearchHit = {
  scope: string;
  name: string;
  description: string;
  format: string;
  version: string | null;
  tags: string[];
  toolCount: number;
  tokenGated: boolean;
  signed: boolean;
  downloads: number;
  stars: number;
  publishedAt: Date;
  score: number;
};

export type SearchResult = {
  hits: SearchHit[];
  /** matches, counted up to COUNT_CAP */
  total: number;
  /** more than COUNT_CAP match ("10,000+") */
  totalIsCapped: boolean;
  page: number;
  perPage: number;
  /** the words the query was widened to when a word looked misspelled */
  corrections: Record<string, string[]>;
  /** with `facets`: matches per format, and in all formats (capped like total), ignoring `format` */
  formatCounts?: Record<string, number>;
  allFormatsTotal?: number;
};

const MAX_WORDS = 8;
export const COUNT_CAP = 10_000;

/** Lowercase words of a query: letters and digits only (so they are safe in tsquery). */
export function queryWords(q: string): string[] {
  return Array.from(new Set(q.toLowerCase().slice(0, 200).split(/[^a-z0-9]+/).filter(Boolean))).slice(0, MAX_WORDS);
}

/** For each query word that is not a known word, the known words nearest to it. */
async function corrections(db: Db, words: string[]): Promise<Record<string, string[]>> {
  const candidates = words.filter((w) => w.length >= 4 && !/^[0-9]+$/.test(w));
  if (candidates.length === 0) return {};
  // known words skip the trigram search
  const rows = await db.$queryRaw<Array<{ w: string; word: string }>>`
    SELECT q.w, s.word
    FROM (SELECT w FROM unnest(${candidates}::text[]) AS u(w) WHERE NOT EXISTS (SELECT 1 FROM "SearchWord" k WHERE k.word = u.w)) q
    CROSS JOIN LATERAL (
      SELECT word FROM "SearchWord"
      WHERE word % q.w
      ORDER BY similarity(word, q.w) DESC, word
      LIMIT 3
    ) s`;
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.w] ??= []).push(r.word);
  return out;
}

/** `(word:* | alt1 | alt2) & (...)`: every word must match, by prefix or a correction. */
export function buildTsQuery(words: string[], fixes: Record<string, string[]>): string {
  return words.map((w) => `(${[`${w}:*`, ...(fixes[w] ?? [])].join(' | ')})`).join(' & ');
}

export async function searchSkills(db: Db, query: SearchQuery = {}): Promise<SearchResult> {
  const perPage = Math.min(Math.max(Math.trunc(query.perPage ?? 20), 1), 100);
  const page = Math.min(Math.max(Math.trunc(query.page ?? 1), 1), 500);
  const words = queryWords(query.q ?? '');
  const fixes = words.length ? await corrections(db, words) : {};
  const raw = words.join(' ');
  const tsq = words.length ? buildTsQuery(words, fixes) : null;

  const scopes = (query.viewerScopes ?? []).slice(0, 1_000);
  const visible = scopes.length
    ? Prisma.sql`(s.visibility = 'public' OR s."scopeName" = ANY(${scopes}::text[]))`
    : Prisma.sql`s.visibility = 'public'`;
  // every condition but the format: the facet counts ignore it
  const common: Prisma.Sql[] = [visible, Prisma.sql`s."latestVersionId" IS NOT NULL`];
  const tsquery = tsq ? Prisma.sql`to_tsquery('english', ${tsq})` : null;
  if (query.tag) common.push(Prisma.sql`s.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.gated !== undefined) common.push(Prisma.sql`s."tokenGated" = ${query.gated}`);
  if (query.signed !== undefined) common.push(Prisma.sql`s.signed = ${query.signed}`);
  if (query.scope) common.push(Prisma.sql`s."scopeName" = ${query.scope.replace(/^@/, '')}`);
  const where = query.format ? [...common, Prisma.sql`s.format = ${query.format}`] : common;
  const filter = Prisma.join(where, ' AND ');

  // relevance: the rank of name, tool names, description and tags (a match only in the
  // instructions ranks lowest), plus name similarity, nudged by popularity
  const score = tsquery
    ? Prisma.sql`(ts_rank(coalesce(s."searchVector", ''::tsvector), ${tsquery}) + 0.01 + similarity(s.name, ${raw})) * (1 + ln(1 + s.downloads) / 20)`
    : Prisma.sql`0::float8`;
  const sort = query.sort ?? (tsq ? 'relevance' : 'downloads');
  const orderBy = (t: string) => {
    const c = (col: string) => Prisma.raw(`${t}."${col}"`);
    if (sort === 'recent') return Prisma.sql`${c('publishedAt')} DESC, ${c('id')}`;
    if (sort === 'stars') return Prisma.sql`${c('stars')} DESC, ${c('downloads')} DESC, ${c('id')}`;
    if (sort === 'relevance' && tsquery) return Prisma.sql`${c('score')} DESC, ${c('downloads')} DESC, ${c('id')}`;
    return Prisma.sql`${c('downloads')} DESC, ${c('id')}`;
  };
  // The matching rows with what sorting needs. With words, the ids of a union of two GIN
  // index scans (name/tools/description, instructions) first, then the filters on those
  // rows: filters inside the union let the planner scan the table (or another index) and
  // read every row's long, toasted instructions (800 ms at 20,000 skills, 50 ms without).
  const cols = Prisma.sql`s.id, ${score} AS score, s.downloads, s."publishedAt", s.stars`;
  const ids = tsquery
    ? Prisma.sql`SELECT id FROM "Skill" WHERE "searchVector" @@ ${tsquery} UNION SELECT id FROM "Skill" WHERE "searchBody" @@ ${tsquery}`
    : null;
  const matches = ids
    ? Prisma.sql`SELECT ${cols} FROM (${ids}) ids JOIN "Skill" s ON s.id = ids.id WHERE ${filter}`
    : Prisma.sql`SELECT ${cols} FROM "Skill" s WHERE ${filter}`;

  type Row = Omit<SearchHit, 'scope' | 'version'> & { scopeName: string; version: string | null; total: bigint | null };
  // With words every match is ranked anyway, so the page carries the total (a window count
  // over the same rows) instead of a second pass; browsing stays on the sort's index.
  const pageQuery = db.$queryRaw<Row[]>`
    WITH m AS (${matches}),
    p AS (SELECT *, ${ids ? Prisma.sql`count(*) OVER ()` : Prisma.sql`NULL::bigint`} AS total FROM m ORDER BY ${orderBy('m')} LIMIT ${perPage} OFFSET ${(page - 1) * perPage})
    SELECT s."scopeName", s.name, s.description, s.format, s.tags, s."toolCount", s."tokenGated", s.signed,
           s.downloads, s.stars, s."publishedAt", v.version, p.score, p.total
    FROM p JOIN "Skill" s ON s.id = p.id
    LEFT JOIN "SkillVersion" v ON v.id = s."latestVersionId"
    ORDER BY ${orderBy('p')}`;
  // capped, so that browsing most of the registry does not count all of it
  const countQuery = () => db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM (SELECT 1 FROM (${matches}) m LIMIT ${COUNT_CAP + 1}) c`;
  // per format over the matches without the format filter
  const facetFilter = Prisma.join(common, ' AND ');
  const facetQuery = db.$queryRaw<Array<{ format: string; n: bigint }>>(
    ids
      ? Prisma.sql`SELECT s.format, count(*) AS n FROM (${ids}) ids JOIN "Skill" s ON s.id = ids.id WHERE ${facetFilter} GROUP BY s.format`
      : Prisma.sql`SELECT s.format, count(*) AS n FROM "Skill" s WHERE ${facetFilter} GROUP BY s.format`,
  );
  let rows: Row[];
  let n: number;
  let facetRows: Array<{ format: string; n: bigint }> | undefined;
  if (ids) {
    // The planner underrates reading toasted tsvectors and would rather scan the table
    // than the instructions' GIN index for a common word; this keeps it on the indexes.
    const [, r, f] = await db.$transaction([db.$executeRaw`SET LOCAL enable_seqscan = off`, pageQuery, ...(query.facets ? [facetQuery] : [])]);
    rows = r as Row[];
    facetRows = f as typeof facetRows;
    // a page past the end has no row to carry the total
    n = rows.length ? Number(rows[0].total) : page > 1 ? Number((await countQuery())[0].n) : 0;
  } else {
    const [r, c, f] = await Promise.all([pageQuery, countQuery(), query.facets ? facetQuery : undefined]);
    rows = r;
    n = Number(c[0].n);
    facetRows = f;
  }
  const formatCounts = facetRows ? Object.fromEntries(facetRows.map((r) => [r.format, Number(r.n)])) : undefined;
  const allFormats = formatCounts ? Object.values(formatCounts).reduce((a, b) => a + b, 0) : undefined;
  return {
    hits: rows.map((r) => ({
      scope: r.scopeName,
      name: r.name,
      description: r.description,
      format: r.format,
      version: r.version,
      tags: r.tags,
      toolCount: r.toolCount,
      tokenGated: r.tokenGated,
      signed: r.signed,
      downloads: r.downloads,
      stars: r.stars,
      publishedAt: r.publishedAt,
      score: Number(r.score),
    })),
    total: Math.min(n, COUNT_CAP),
    totalIsCapped: n > COUNT_CAP,
    page,
    perPage,
    corrections: fixes,
    ...(formatCounts ? { formatCounts, allFormatsTotal: Math.min(allFormats!, COUNT_CAP) } : {}),
  };
}
