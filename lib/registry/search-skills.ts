// Registry search: Postgres full text over the narrow "SkillSearch" rows, typo tolerance
// with pg_trgm (a query word that starts no known word is widened with the nearest
// known words), filters, sorts, paging, a capped total and counts per format. Public
// skills with a latest version, plus every skill of the scopes the caller may see
// privately (`viewerScopes`: their own scope and their teams', from lib/authz
// privateScopesOf).
//
// Relevance comes in tiers, so a common word never ranks all of its matches: skills whose
// name or tool names match (ranked by text rank, name similarity and popularity), then
// skills whose description, tags or tool descriptions match, then skills that match only
// in their instructions, each of the last two by downloads and read only as far as the
// page needs.
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
  /** more than COUNT_CAP match (show "1,000+") */
  totalIsCapped: boolean;
  page: number;
  perPage: number;
  /** the words the query was widened to when a word looked misspelled */
  corrections: Record<string, string[]>;
  /** with `facets`: matches per format (each counted up to COUNT_CAP + 1, so above COUNT_CAP
   *  means "1,000+"), and in all formats (capped like total), ignoring `format` */
  formatCounts?: Record<string, number>;
  allFormatsTotal?: number;
  allFormatsTotalIsCapped?: boolean;
};

const MAX_WORDS = 8;
/** Counting stops here: "1,000+" says as much as 6,661 and costs a bounded read. */
export const COUNT_CAP = 1_000;
export const SEARCH_FORMATS = ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'] as const;

/** Lowercase words of a query: letters and digits only (so they are safe in tsquery). */
export function queryWords(q: string): string[] {
  return Array.from(new Set(q.toLowerCase().slice(0, 200).split(/[^a-z0-9]+/).filter(Boolean))).slice(0, MAX_WORDS);
}

/** For each query word that starts no known word (it would match by prefix), the known words nearest to it. */
async function corrections(db: Db, words: string[]): Promise<Record<string, string[]>> {
  const candidates = words.filter((w) => w.length >= 4 && !/^[0-9]+$/.test(w));
  if (candidates.length === 0) return {};
  const rows = await db.$queryRaw<Array<{ w: string; word: string }>>`
    SELECT q.w, s.word
    FROM (SELECT w FROM unnest(${candidates}::text[]) AS u(w) WHERE NOT EXISTS (SELECT 1 FROM "SearchWord" k WHERE k.word LIKE u.w || '%')) q
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

type PageRow = { id: string; score: number };
type Row = Omit<SearchHit, 'scope' | 'version' | 'publishedAt'> & { scopeName: string; version: string | null; publishedAt: string };

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
  const q = tsq ? Prisma.sql`to_tsquery('english', ${tsq})` : null;
  // the filters, without the words and the format (the facet counts ignore the format)
  const base: Prisma.Sql[] = [visible];
  if (query.tag) base.push(Prisma.sql`s.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.gated !== undefined) base.push(Prisma.sql`s."tokenGated" = ${query.gated}`);
  if (query.signed !== undefined) base.push(Prisma.sql`s.signed = ${query.signed}`);
  if (query.scope) base.push(Prisma.sql`s."scopeName" = ${query.scope.replace(/^@/, '')}`);
  const and = (parts: Prisma.Sql[]) => Prisma.join(parts, ' AND ');
  const match = q ? [Prisma.sql`(s."textVector" @@ ${q} OR s."bodyVector" @@ ${q})`] : [];
  const common = [...match, ...base];
  const rest = and(query.format ? [...base, Prisma.sql`s.format = ${query.format}`] : base);
  const filter = and(query.format ? [...common, Prisma.sql`s.format = ${query.format}`] : common);
  const need = page * perPage;

  const sort = query.sort ?? (q ? 'relevance' : 'downloads');
  const keys =
    sort === 'recent' ? Prisma.sql`s."publishedAt" DESC, s."skillId"`
    : sort === 'stars' ? Prisma.sql`s.stars DESC, s.downloads DESC, s."skillId"`
    : Prisma.sql`s.downloads DESC, s."skillId"`;
  // the ids of the page (and the rows before it), in order
  let ordered: Prisma.Sql;
  if (q && sort === 'relevance') {
    const tier1 = Prisma.sql`SELECT s."skillId" AS id, s.downloads,
        (ts_rank(s."textVector", ${q}) + 0.01 + similarity(s.name, ${raw})) * (1 + ln(1 + s.downloads) / 20) AS score
      FROM "SkillSearch" s WHERE s."nameVector" @@ ${q} AND ${rest}`;
    ordered = Prisma.sql`
      t1 AS MATERIALIZED (${tier1}),
      n1 AS (SELECT count(*)::int AS n FROM t1),
      p1 AS (SELECT id, 1 AS tier, score, downloads FROM t1 ORDER BY score DESC, downloads DESC, id LIMIT ${need}),
      p2 AS MATERIALIZED (
        SELECT s."skillId" AS id, 2 AS tier, 0::float8 AS score, s.downloads FROM "SkillSearch" s
        WHERE s."textVector" @@ ${q} AND NOT s."nameVector" @@ ${q} AND ${rest}
        ORDER BY ${keys} LIMIT greatest(0, ${need} - (SELECT n FROM n1))),
      p3 AS (
        SELECT s."skillId" AS id, 3 AS tier, 0::float8 AS score, s.downloads FROM "SkillSearch" s
        WHERE s."bodyVector" @@ ${q} AND NOT s."textVector" @@ ${q} AND ${rest}
        ORDER BY ${keys} LIMIT greatest(0, ${need} - (SELECT n FROM n1) - (SELECT count(*) FROM p2))),
      page AS (
        SELECT id, score, row_number() OVER (ORDER BY tier, score DESC, downloads DESC, id) AS rank
        FROM (SELECT * FROM p1 UNION ALL SELECT * FROM p2 UNION ALL SELECT * FROM p3) t
        ORDER BY tier, score DESC, downloads DESC, id OFFSET ${need - perPage} LIMIT ${perPage})`;
  } else {
    ordered = Prisma.sql`
      page AS (
        SELECT s."skillId" AS id, 0::float8 AS score, row_number() OVER (ORDER BY ${keys}) AS rank
        FROM "SkillSearch" s WHERE ${filter} ORDER BY ${keys} OFFSET ${need - perPage} LIMIT ${perPage})`;
  }
  // counted up to the cap: past it the figure would cost a read of every match
  const capped = (cond: Prisma.Sql) =>
    Prisma.sql`(SELECT count(*)::int FROM (SELECT 1 FROM "SkillSearch" s WHERE ${cond} LIMIT ${COUNT_CAP + 1}) c)`;
  const facets = query.facets
    ? Prisma.sql`(SELECT json_object_agg(f, n) FROM (SELECT f, ${capped(Prisma.sql`${and(common)} AND s.format = f`)} AS n FROM unnest(${[...SEARCH_FORMATS]}::text[]) AS f) c)`
    : Prisma.sql`NULL::json`;
  // one statement, one round trip: the page as JSON, the capped total, the facets
  const [res] = await db.$queryRaw<Array<{ hits: Row[] | null; total: number; facets: Record<string, number> | null }>>`
    WITH ${ordered}
    SELECT
      (SELECT json_agg(json_build_object(
          'scopeName', k."scopeName", 'name', k.name, 'description', k.description, 'format', k.format, 'tags', k.tags,
          'toolCount', k."toolCount", 'tokenGated', k."tokenGated", 'signed', k.signed, 'downloads', k.downloads, 'stars', k.stars,
          'publishedAt', k."publishedAt" AT TIME ZONE 'UTC', 'version', v.version, 'score', p.score) ORDER BY p.rank)
        FROM page p JOIN "Skill" k ON k.id = p.id LEFT JOIN "SkillVersion" v ON v.id = k."latestVersionId") AS hits,
      ${capped(filter)} AS total,
      ${facets} AS facets`;
  const n = res.total;
  const formatCounts = res.facets ?? undefined;
  const allFormats = formatCounts ? Object.values(formatCounts).reduce((a, b) => a + b, 0) : undefined;
  return {
    hits: (res.hits ?? []).map((r) => ({
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
      publishedAt: new Date(r.publishedAt),
      score: Number(r.score),
    })),
    total: Math.min(n, COUNT_CAP),
    totalIsCapped: n > COUNT_CAP,
    page,
    perPage,
    corrections: fixes,
    ...(formatCounts
      ? { formatCounts, allFormatsTotal: Math.min(allFormats!, COUNT_CAP), allFormatsTotalIsCapped: allFormats! > COUNT_CAP }
      : {}),
  };
}
