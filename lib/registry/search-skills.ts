// Registry search: Postgres full text over the weighted document (name and tool names
// > description and tags > instructions), typo tolerance with pg_trgm (each query word
// is widened with the nearest known words, and skill names are matched by similarity),
// filters, sorts, paging and a total count. Public skills with a latest version only.
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
  total: number;
  page: number;
  perPage: number;
  /** the words the query was widened to when a word looked misspelled */
  corrections: Record<string, string[]>;
};

const MAX_WORDS = 8;

/** Lowercase words of a query: letters and digits only (so they are safe in tsquery). */
export function queryWords(q: string): string[] {
  return Array.from(new Set(q.toLowerCase().slice(0, 200).split(/[^a-z0-9]+/).filter(Boolean))).slice(0, MAX_WORDS);
}

/** For each query word that is not a known word, the known words nearest to it. */
async function corrections(db: Db, words: string[]): Promise<Record<string, string[]>> {
  const candidates = words.filter((w) => w.length >= 4 && !/^[0-9]+$/.test(w));
  if (candidates.length === 0) return {};
  const rows = await db.$queryRaw<Array<{ w: string; word: string | null; exact: boolean }>>`
    SELECT q.w, s.word, s.word = q.w AS exact
    FROM unnest(${candidates}::text[]) AS q(w)
    LEFT JOIN LATERAL (
      SELECT word FROM "SearchWord"
      WHERE word % q.w
      ORDER BY similarity(word, q.w) DESC, word
      LIMIT 3
    ) s ON true`;
  const out: Record<string, string[]> = {};
  const known = new Set(rows.filter((r) => r.exact).map((r) => r.w));
  for (const r of rows) {
    if (known.has(r.w) || !r.word) continue;
    (out[r.w] ??= []).push(r.word);
  }
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

  const where: Prisma.Sql[] = [Prisma.sql`s.visibility = 'public'`, Prisma.sql`s."latestVersionId" IS NOT NULL`];
  if (tsq) where.push(Prisma.sql`(s."searchVector" @@ to_tsquery('english', ${tsq}) OR s.name % ${raw})`);
  if (query.format) where.push(Prisma.sql`s.format = ${query.format}`);
  if (query.tag) where.push(Prisma.sql`s.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.gated !== undefined) where.push(Prisma.sql`s."tokenGated" = ${query.gated}`);
  if (query.signed !== undefined) where.push(Prisma.sql`s.signed = ${query.signed}`);
  if (query.scope) where.push(Prisma.sql`s."scopeName" = ${query.scope.replace(/^@/, '')}`);

  // relevance: text rank plus name similarity, nudged by popularity
  const score = tsq
    ? Prisma.sql`(ts_rank(s."searchVector", to_tsquery('english', ${tsq})) + similarity(s.name, ${raw})) * (1 + ln(1 + s.downloads) / 20)`
    : Prisma.sql`0::float8`;
  const sort = query.sort ?? (tsq ? 'relevance' : 'downloads');
  const order =
    sort === 'downloads'
      ? Prisma.sql`s.downloads DESC, s.id`
      : sort === 'recent'
        ? Prisma.sql`s."publishedAt" DESC, s.id`
        : sort === 'stars'
          ? Prisma.sql`s.stars DESC, s.downloads DESC, s.id`
          : tsq
            ? Prisma.sql`score DESC, s.downloads DESC, s.id`
            : Prisma.sql`s.downloads DESC, s.id`;

  const rows = await db.$queryRaw<
    Array<Omit<SearchHit, 'scope' | 'version'> & { scopeName: string; version: string | null; total: bigint }>
  >`
    SELECT s."scopeName", s.name, s.description, s.format, s.tags, s."toolCount", s."tokenGated", s.signed,
           s.downloads, s.stars, s."publishedAt", v.version, ${score} AS score, count(*) OVER () AS total
    FROM "Skill" s
    LEFT JOIN "SkillVersion" v ON v.id = s."latestVersionId"
    WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY ${order}
    LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`;

  let total = rows.length ? Number(rows[0].total) : 0;
  if (rows.length === 0 && page > 1) {
    // past the last page: still say how many there are
    const [c] = await db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM "Skill" s WHERE ${Prisma.join(where, ' AND ')}`;
    total = Number(c.n);
  }
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
    total,
    page,
    perPage,
    corrections: fixes,
  };
}
