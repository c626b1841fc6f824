// Registry search: Postgres full text over the narrow "SkillSearch" rows, typo tolerance
// (a query word that starts no known word is widened with the known words one edit away,
// a split into two words, or the nearest by pg_trgm), filters, sorts, paging, a capped total and counts per format. Public
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
import { type Db, Prisma } from '../db';
import { editVariants, twoWordSplits, type Variant } from './word-variants';
import { startsKnownWord, vocabulary } from './search-vocabulary';
import { expandPrefixes } from './expand-prefixes';

export const SEARCH_SORTS = ['relevance', 'downloads', 'recent', 'stars'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export type SearchQuery = {
  q?: string;
  format?: string;
  tag?: string;
  gated?: boolean;
  signed?: boolean;
  scope?: string;
  /** only skills the latest version of which this agent loads (manifest.agents, issue 32) */
  loadsIn?: 'claude-code' | 'codex' | 'openclaw' | 'cursor' | 'copilot';
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
  /** public, or private (only its scope's members see it) */
  visibility: string;
  downloads: number;
  stars: number;
  publishedAt: Date;
  /** relevance of the best name matches (text rank, name similarity, popularity); 0 for
   *  the matches ranked after them, and for the other sorts */
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
  /** with `facets`, ignoring `format`: with words, the formats of the first COUNT_CAP + 1
   *  matches (exact when all formats together are not capped, lower bounds when they are);
   *  browsing, each format counted up to COUNT_CAP + 1 (above COUNT_CAP: "1,000+") */
  formatCounts?: Record<string, number>;
  /** with `facets`: matches in all formats, capped like total */
  allFormatsTotal?: number;
  allFormatsTotalIsCapped?: boolean;
  /** the per-format counts are lower bounds (with words, past the cap) */
  formatCountsAreLowerBounds?: boolean;
};

const MAX_WORDS = 8;
/** Counting stops here: "1,000+" says as much as 6,661 and costs a bounded read. */
export const COUNT_CAP = 1_000;
/** the formats the home page counts when browsing */
const FORMATS = ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'];
/** Name matches scored in full; the rest of them follow by name prefix and downloads. */
const RANKED = 200;

/** Lowercase words of a query: letters and digits only (so they are safe in tsquery). */
export function queryWords(q: string): string[] {
  return Array.from(
    new Set(
      q
        .toLowerCase()
        .slice(0, 200)
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    ),
  ).slice(0, MAX_WORDS);
}

/** Longest vocabulary word (refresh-skill-search.ts keeps 3 to 32 letters): a prefix's upper bound. */
const PREFIX_END = 'z'.repeat(32);

/**
 * For each query word that starts no known word (it would match by prefix), the known words
 * one edit away (a swapped pair of letters first: "wrod" -> "word"), or else two known
 * words it splits into ("wordcount" -> "word count"), or else the nearest by trigrams.
 * One round trip in the common case: the prefix check and the exact look-ups of every
 * variant on the vocabulary's primary key.
 */
export async function corrections(db: Db, words: string[]): Promise<Record<string, string[]>> {
  const candidates = words.filter((w) => w.length >= 4 && !/^[0-9]+$/.test(w));
  if (candidates.length === 0) return {};
  const edits = new Map(candidates.map((w) => [w, editVariants(w)]));
  const splits = new Map(candidates.map((w) => [w, twoWordSplits(w)]));
  const { known, exists, swapStarts } = await lookUpSpellings(db, candidates, edits, splits);
  const out: Record<string, string[]> = {};
  const far: string[] = [];
  for (const w of candidates) {
    if (known.has(w)) continue;
    // a transposition is the likeliest slip: its variants come first, as prefixes
    const vs = edits.get(w)!;
    const near = [...new Set([...vs.filter((v) => v.kind === 'swap' && swapStarts.has(v.word)), ...vs.filter((v) => exists.has(v.word))].map((v) => v.word))].slice(0, 3);
    const split = splits.get(w)!.find(([a, b]) => exists.has(a) && exists.has(b));
    if (near.length) out[w] = near;
    else if (split) out[w] = [split.join(' ')];
    else far.push(w);
  }
  if (far.length === 0) return out;
  const trigram = await db.$queryRaw<Array<{ w: string; word: string }>>`
    SELECT q.w, s.word
    FROM unnest(${far}::text[]) AS q(w)
    CROSS JOIN LATERAL (
      SELECT word FROM "SearchWord"
      WHERE word % q.w
      ORDER BY similarity(word, q.w) DESC, word
      LIMIT 3
    ) s`;
  for (const r of trigram) (out[r.w] ??= []).push(r.word);
  return out;
}

type Spellings = { known: Set<string>; exists: Set<string>; swapStarts: Set<string> };

/**
 * Which query words start a known word (nothing else is looked up for those), which variants
 * and split parts are known words, and which swapped variants start one ("wrod" -> "word",
 * which starts "words"). From the vocabulary in memory, or in one round trip to Postgres
 * when it is too large to hold.
 */
async function lookUpSpellings(db: Db, candidates: string[], edits: Map<string, Variant[]>, splits: Map<string, Array<[string, string]>>): Promise<Spellings> {
  const spellings = (w: string) => [...edits.get(w)!.map((v) => v.word), ...splits.get(w)!.flat()];
  const swapsOf = (w: string) =>
    edits
      .get(w)!
      .filter((v) => v.kind === 'swap')
      .map((v) => v.word);
  const vocab = await vocabulary(db);
  if (vocab) {
    const known = new Set(candidates.filter((w) => startsKnownWord(vocab, w)));
    const open = candidates.filter((w) => !known.has(w));
    return {
      known,
      exists: new Set(open.flatMap(spellings).filter((v) => vocab.set.has(v))),
      swapStarts: new Set(open.flatMap(swapsOf).filter((v) => startsKnownWord(vocab, v))),
    };
  }
  const pairs = (list: (w: string) => string[]) => candidates.flatMap((w) => [...new Set(list(w))].map((v) => [w, v] as const));
  const exact = pairs(spellings);
  const swaps = pairs(swapsOf);
  const rows = await db.$queryRaw<Array<{ k: number; w: string }>>`
    WITH known AS MATERIALIZED (
      SELECT u.w FROM unnest(${candidates}::text[]) AS u(w)
      WHERE EXISTS (SELECT 1 FROM "SearchWord" s WHERE s.word >= u.w AND s.word <= u.w || ${PREFIX_END}))
    SELECT 0 AS k, w FROM known
    UNION ALL
    SELECT 1, x.v FROM unnest(${exact.map((p) => p[0])}::text[], ${exact.map((p) => p[1])}::text[]) AS x(w, v)
      WHERE x.w NOT IN (SELECT w FROM known) AND EXISTS (SELECT 1 FROM "SearchWord" s WHERE s.word = x.v)
    UNION ALL
    SELECT 2, x.v FROM unnest(${swaps.map((p) => p[0])}::text[], ${swaps.map((p) => p[1])}::text[]) AS x(w, v)
      WHERE x.w NOT IN (SELECT w FROM known) AND EXISTS (SELECT 1 FROM "SearchWord" s WHERE s.word >= x.v AND s.word <= x.v || ${PREFIX_END})`;
  const of = (k: number) => new Set(rows.filter((r) => r.k === k).map((r) => r.w));
  return { known: of(0), exists: of(1), swapStarts: of(2) };
}

/**
 * `(word:* | alt1 | alt2) & (...)`: every word must match, by prefix or a correction; a
 * correction of two words (a split) must match both: `(wordcount:* | (word & count))`.
 */
export function buildTsQuery(words: string[], fixes: Record<string, string[]>): string {
  // a swapped-letters correction stands for a word being typed too: a prefix ("word:*" finds "words")
  const term = (w: string, alt: string) => (alt.includes(' ') ? `(${alt.split(' ').join(' & ')})` : isSwap(alt, [w]) ? `${alt}:*` : alt);
  return words.map((w) => `(${[`${w}:*`, ...(fixes[w] ?? []).map((alt) => term(w, alt))].join(' | ')})`).join(' & ');
}

/** Whether `v` is one of `words` with two neighbouring letters swapped. */
function isSwap(v: string, words: string[]): boolean {
  return words.some((w) => {
    if (w.length !== v.length || w === v) return false;
    const diff = [...w].flatMap((c, i) => (c === v[i] ? [] : [i]));
    return diff.length === 2 && diff[1] === diff[0] + 1 && w[diff[0]] === v[diff[1]] && w[diff[1]] === v[diff[0]];
  });
}

type Row = Omit<SearchHit, 'scope' | 'version' | 'publishedAt'> & { scopeName: string; version: string | null; publishedAt: string };

export async function searchSkills(db: Db, query: SearchQuery = {}): Promise<SearchResult> {
  const perPage = Math.min(Math.max(Math.trunc(query.perPage ?? 20), 1), 100);
  const page = Math.min(Math.max(Math.trunc(query.page ?? 1), 1), 500);
  const words = queryWords(query.q ?? '');
  const fixes = words.length ? await corrections(db, words) : {};
  const raw = words.join(' ');
  const tsq = words.length ? buildTsQuery(words, fixes) : null;

  const scopes = (query.viewerScopes ?? []).slice(0, 1_000);
  const visible = scopes.length ? Prisma.sql`(s.visibility = 'public' OR s."scopeName" = ANY(${scopes}::text[]))` : Prisma.sql`s.visibility = 'public'`;
  // matched with the prefixes spelled out (expand-prefixes.ts), ranked as typed
  const q = tsq ? Prisma.sql`${await expandPrefixes(db, tsq)}::tsquery` : null;
  const asTyped = Prisma.sql`to_tsquery('english', ${tsq})`;
  // the filters, without the words and the format (the facet counts ignore the format)
  const base: Prisma.Sql[] = [visible];
  if (query.tag) base.push(Prisma.sql`s.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.gated !== undefined) base.push(Prisma.sql`s."tokenGated" = ${query.gated}`);
  if (query.signed !== undefined) base.push(Prisma.sql`s.signed = ${query.signed}`);
  if (query.scope) base.push(Prisma.sql`s."scopeName" = ${query.scope.replace(/^@/, '')}`);
  if (query.loadsIn) {
    base.push(Prisma.sql`EXISTS (SELECT 1 FROM "Skill" lk JOIN "SkillVersion" lv ON lv.id = lk."latestVersionId", jsonb_array_elements(CASE WHEN jsonb_typeof(lv.manifest->'agents') = 'array' THEN lv.manifest->'agents' ELSE '[]'::jsonb END) la
      WHERE lk.id = s."skillId" AND la->>'agent' = ${query.loadsIn} AND la->>'loads' = 'true')`);
  }
  const and = (parts: Prisma.Sql[]) => Prisma.join(parts, ' AND ');
  const withFormat = (parts: Prisma.Sql[]) => and(query.format ? [...parts, Prisma.sql`s.format = ${query.format}`] : parts);
  const need = page * perPage;

  const sort = query.sort ?? (q ? 'relevance' : 'downloads');
  const keys =
    sort === 'recent'
      ? Prisma.sql`s."publishedAt" DESC, s."skillId"`
      : sort === 'stars'
        ? Prisma.sql`s.stars DESC, s.downloads DESC, s."skillId"`
        : Prisma.sql`s.downloads DESC, s."skillId"`;
  const outerKeys = sort === 'recent' ? Prisma.sql`"publishedAt" DESC, id` : sort === 'stars' ? Prisma.sql`stars DESC, downloads DESC, id` : Prisma.sql`downloads DESC, id`;
  // (A tier's LIMIT is a constant inside and what is left of the page outside: given a
  // computed LIMIT the planner assumes a tenth of the matches will do, and scans tables.)
  // The matches of the words are those of the text document and those of the
  // instructions' document (in its own table) that the text does not match.
  const textMatches = (cond: Prisma.Sql) => Prisma.sql`FROM "SkillSearch" s WHERE s."textVector" @@ ${q} AND ${cond}`;
  // The instructions' matches come from one lazily read list of ids ("bodyIds", read
  // only as far as a tier or a count needs it): the planner cannot cost reading a toasted
  // document, and would otherwise walk an index of "SkillSearch" testing the document of
  // every row (seconds for a word no skill has).
  // (Each id looked up on its own, OFFSET 0 keeping the join a nested loop: given a good
  // estimate of the list, the planner would hash all of it to return a few rows.)
  const bodyOnlyMatches = (cond: Prisma.Sql) =>
    Prisma.sql`FROM "bodyIds" b CROSS JOIN LATERAL (
      SELECT s.* FROM "SkillSearch" s WHERE s."skillId" = b."skillId" AND NOT s."textVector" @@ ${q} AND ${cond} OFFSET 0) s`;
  // The capped sets the counts read (below) hold the text's matches and then the
  // instructions' (`body`) up to the cap, with their sort keys: fewer rows than the cap
  // means every match of the filters, and the tiers read them from there instead of an
  // index walk that tests each row's documents. (`textSet` and `matchSet`: those of the
  // page's filters, format included.)
  const [textSet, matchSet] = query.format ? [Prisma.raw('"oneFormatText"'), Prisma.raw('"oneFormat"')] : [Prisma.raw('"anyFormatText"'), Prisma.raw('"anyFormat"')];
  const cap = COUNT_CAP + 1;
  const complete = (set: Prisma.Sql) => Prisma.sql`(SELECT count(*) FROM ${set}) < ${cap}`;
  const keyCols = Prisma.sql`s."skillId", s.downloads, s.stars, s."publishedAt"`;
  // The first `need` instruction-only matches in the sort's order. A common word is found
  // among the first rows of the sort's index (testing each row's document); when `walkRows`
  // rows do not give enough (fewer than one row in ten matches), the id list decides.
  const walkRows = Math.max(500, 10 * need);
  const bodyOnlyTop = (cond: Prisma.Sql, inSortOrder: boolean) => Prisma.sql`(
      WITH walk AS MATERIALIZED (
        SELECT s.* FROM (SELECT ${keyCols} FROM "SkillSearch" s WHERE NOT s."textVector" @@ ${q} AND ${cond} ORDER BY ${keys} LIMIT ${walkRows}) s
        -- an instructions' match: in the complete set, or in the id list when it is short
        -- ("bodyFew"), or else its document tested (a join, not EXISTS, which the planner
        -- would turn into reading every match; the flags read from rows of their own, not
        -- counted again for each row joined)
        LEFT JOIN LATERAL (SELECT 1 AS hit FROM "SkillSearchBody" b
          WHERE b."skillId" = s."skillId" AND NOT (SELECT yes FROM "matchesComplete") AND NOT (SELECT yes FROM "bodyFewAll")
            AND b."bodyVector" @@ ${q} LIMIT 1) h ON true
        WHERE CASE WHEN ${complete(matchSet)} THEN s."skillId" IN (SELECT "skillId" FROM ${matchSet} WHERE body)
                   WHEN (SELECT yes FROM "bodyFewAll") THEN s."skillId" IN (SELECT "skillId" FROM "bodyFew")
                   ELSE h.hit IS NOT NULL END
        ORDER BY ${keys} LIMIT ${need})
      SELECT *, 0::bigint AS "listPos" FROM walk WHERE (SELECT count(*) FROM walk) >= ${need}
      UNION ALL
      ${
        inSortOrder
          ? Prisma.sql`SELECT *, 0::bigint FROM (SELECT ${keyCols} FROM ${matchSet} s WHERE body ORDER BY ${keys} LIMIT ${need}) s
                WHERE (SELECT count(*) FROM walk) < ${need} AND ${complete(matchSet)}
              UNION ALL
              SELECT *, 0::bigint FROM (SELECT ${keyCols} ${bodyOnlyMatches(cond)} ORDER BY ${keys} LIMIT ${need}) s
                WHERE (SELECT count(*) FROM walk) < ${need} AND NOT ${complete(matchSet)}`
          : // relevance's last tier: past the walk, the list's own order (the list is read in
            // that order, as the count reads it; "listPos") instead of sorting every match
            Prisma.sql`SELECT *, 0::bigint FROM walk WHERE (SELECT count(*) FROM walk) < ${need}
              UNION ALL
              SELECT * FROM (SELECT ${keyCols}, b.pos ${bodyOnlyMatches(Prisma.sql`${cond} AND s."skillId" NOT IN (SELECT "skillId" FROM walk)`)}
                             LIMIT ${need}) s WHERE (SELECT count(*) FROM walk) < ${need}`
      })`;
  // The id list's first rows, read (only by the walk) when the counts did not decide: all
  // of them when there are at most the cap's worth, then the walk tests ids, not documents
  // (the counts read most of those rows already; a longer list is left to the walk).
  const bodyFew = cap;
  const bodyIds = q
    ? Prisma.sql`"bodyIds" AS MATERIALIZED (SELECT "skillId", row_number() OVER () AS pos FROM "SkillSearchBody" WHERE "bodyVector" @@ ${q}),
        "bodyFew" AS MATERIALIZED (SELECT "skillId" FROM "bodyIds" LIMIT ${bodyFew + 1}),
        "bodyFewAll" AS MATERIALIZED (SELECT count(*) <= ${bodyFew} AS yes FROM "bodyFew"),`
    : Prisma.empty;
  const cols = Prisma.sql`s."skillId" AS id, s.downloads, s.stars, s."publishedAt"`;

  // The page's ids in order: `tier` first, then `ord` within the tier.
  let ranked: Prisma.Sql;
  if (q && sort === 'relevance') {
    const rest = withFormat(base);
    // Name matches: the RANKED most promising (name starting with the query, then
    // downloads) get the full score (text rank, name similarity, popularity), the rest
    // follow in that cheap order, so a common word never scores thousands of rows.
    ranked = Prisma.sql`
      t1 AS MATERIALIZED (
        SELECT id, row_number() OVER (ORDER BY head DESC, downloads DESC, id) AS pos FROM (
          SELECT s."skillId" AS id, starts_with(s.name, ${words.join('-')}) AS head, s.downloads
          FROM "SkillSearch" s WHERE s."nameVector" @@ ${q} AND ${rest}
          ORDER BY head DESC, s.downloads DESC, s."skillId" LIMIT ${Math.max(RANKED, need)}) t),
      -- (at most what the page reads of them: only "need minus n1" is used)
      n1 AS (SELECT count(*)::int AS n FROM t1),
      p1 AS (
        SELECT t1.id, 1 AS tier, row_number() OVER (ORDER BY x.score DESC, s.downloads DESC, t1.id) AS ord, x.score
        FROM t1 JOIN "SkillSearch" s ON s."skillId" = t1.id
        CROSS JOIN LATERAL (SELECT (ts_rank(s."textVector", ${asTyped}) + 0.01 + similarity(s.name, ${raw})) * (1 + ln(1 + s.downloads) / 20) AS score) x
        WHERE t1.pos <= ${RANKED}),
      p2 AS (SELECT id, 2 AS tier, pos AS ord, 0::float8 AS score FROM t1 WHERE pos > ${RANKED} AND pos <= ${need}),
      p3 AS MATERIALIZED (
        SELECT s."skillId" AS id, 3 AS tier, row_number() OVER (ORDER BY ${keys}) AS ord, 0::float8 AS score
        FROM (SELECT * FROM (
                SELECT * FROM (SELECT ${keyCols} FROM ${textSet} s WHERE NOT s.named ORDER BY ${keys} LIMIT ${need}) s WHERE ${complete(textSet)}
                UNION ALL
                SELECT * FROM (SELECT ${keyCols} ${textMatches(Prisma.sql`NOT s."nameVector" @@ ${q} AND ${rest}`)} ORDER BY ${keys} LIMIT ${need}) s
                  WHERE NOT ${complete(textSet)}) s
              ORDER BY ${keys} LIMIT greatest(0, ${need} - (SELECT n FROM n1))) s),
      p4 AS (
        SELECT s."skillId" AS id, 4 AS tier, row_number() OVER (ORDER BY s."listPos", ${keys}) AS ord, 0::float8 AS score
        FROM (SELECT * FROM ${bodyOnlyTop(rest, false)} s
              LIMIT greatest(0, ${need} - (SELECT n FROM n1) - (SELECT count(*) FROM p3))) s),
      page AS (
        SELECT id, score, row_number() OVER (ORDER BY tier, ord) AS rank
        FROM (SELECT * FROM p1 UNION ALL SELECT * FROM p2 UNION ALL SELECT * FROM p3 UNION ALL SELECT * FROM p4) t
        ORDER BY tier, ord OFFSET ${need - perPage} LIMIT ${perPage})`;
  } else if (q) {
    const filter = withFormat(base);
    ranked = Prisma.sql`
      page AS (
        SELECT id, 0::float8 AS score, row_number() OVER (ORDER BY ${outerKeys}) AS rank
        FROM ((SELECT ${cols} FROM ${textSet} s WHERE ${complete(textSet)} ORDER BY ${keys} LIMIT ${need})
              UNION ALL (SELECT ${cols} ${textMatches(filter)} AND NOT ${complete(textSet)} ORDER BY ${keys} LIMIT ${need})
              UNION ALL (SELECT ${cols} FROM ${bodyOnlyTop(filter, true)} s)) t
        ORDER BY ${outerKeys} OFFSET ${need - perPage} LIMIT ${perPage})`;
  } else {
    ranked = Prisma.sql`
      page AS (
        SELECT s."skillId" AS id, 0::float8 AS score, row_number() OVER (ORDER BY ${keys}) AS rank
        FROM "SkillSearch" s WHERE ${withFormat(base)} ORDER BY ${keys} OFFSET ${need - perPage} LIMIT ${perPage})`;
  }
  // Counted up to the cap: past it the figure would cost a read of every match. The
  // instructions' matches are read only while the text's stay under the cap. The facets
  // count the formats in that capped set: exact up to the cap, lower bounds past it.
  const cappedSet = (name: string, cond: Prisma.Sql) => {
    const [t, all] = [Prisma.raw(`"${name}Text"`), Prisma.raw(`"${name}"`)];
    return q
      ? Prisma.sql`${t} AS MATERIALIZED (SELECT ${keyCols}, s.format, s."nameVector" @@ ${q} AS named ${textMatches(cond)} LIMIT ${cap}),
          ${all} AS MATERIALIZED (SELECT "skillId", downloads, stars, "publishedAt", format, false AS body FROM ${t} UNION ALL
            (SELECT * FROM (SELECT ${keyCols}, s.format, true FROM "bodyIds" b CROSS JOIN LATERAL (
                              SELECT s.* FROM "SkillSearch" s WHERE s."skillId" = b."skillId" AND ${cond} OFFSET 0) s
                            -- (read only while the text's are fewer than the cap: then they are all there)
                            WHERE b."skillId" NOT IN (SELECT "skillId" FROM ${t}) LIMIT ${cap}) b
             LIMIT greatest(0, ${cap} - (SELECT count(*) FROM ${t}))))`
      : Prisma.sql`${all} AS (SELECT s.format FROM "SkillSearch" s WHERE ${cond} LIMIT ${cap})`;
  };
  // Browsing (no words), each format is counted up to the cap on its own index instead.
  const facets = q
    ? Prisma.sql`facets AS (SELECT format, count(*)::int AS n FROM "anyFormat" GROUP BY format)`
    : Prisma.sql`facets AS (
        SELECT f AS format, (SELECT count(*)::int FROM (SELECT 1 FROM "SkillSearch" s WHERE ${and(base)} AND s.format = f LIMIT ${cap}) c) AS n
        FROM unnest(${[...FORMATS]}::text[]) AS f)`;
  const counts = Prisma.sql`
    ${cappedSet('anyFormat', and(base))},
    ${facets},
    ${query.format ? Prisma.sql`${cappedSet('oneFormat', withFormat(base))}, total AS (SELECT count(*)::int AS n FROM "oneFormat")` : Prisma.sql`total AS (SELECT count(*)::int AS n FROM "anyFormat")`}
    ${q ? Prisma.sql`, "matchesComplete" AS MATERIALIZED (SELECT ${complete(matchSet)} AS yes)` : Prisma.empty}`;
  // one statement, one round trip: the page as JSON, the capped total, the facets
  const [res] = await db.$queryRaw<Array<{ hits: Row[] | null; total: number; facets: Record<string, number> | null }>>`
    WITH ${bodyIds} ${counts}, ${ranked}
    SELECT
      (SELECT json_agg(json_build_object(
          'scopeName', k."scopeName", 'name', k.name, 'description', k.description, 'format', k.format, 'tags', k.tags,
          'toolCount', k."toolCount", 'tokenGated', k."tokenGated", 'signed', k.signed, 'visibility', k.visibility, 'downloads', k.downloads, 'stars', k.stars,
          'publishedAt', k."publishedAt" AT TIME ZONE 'UTC', 'version', v.version, 'score', p.score) ORDER BY p.rank)
        FROM page p JOIN "Skill" k ON k.id = p.id LEFT JOIN "SkillVersion" v ON v.id = k."latestVersionId") AS hits,
      (SELECT n FROM total) AS total,
      ${query.facets ? Prisma.sql`(SELECT json_object_agg(format, n) FROM facets)` : Prisma.sql`NULL::json`} AS facets`;
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
      visibility: r.visibility,
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
      ? {
          formatCounts,
          allFormatsTotal: Math.min(allFormats!, COUNT_CAP),
          allFormatsTotalIsCapped: allFormats! > COUNT_CAP,
          formatCountsAreLowerBounds: q !== null && allFormats! > COUNT_CAP,
        }
      : {}),
  };
}
