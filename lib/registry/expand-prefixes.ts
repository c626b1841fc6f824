// A query's prefixes ("fetch:*") rewritten as the exact terms they can match, for the
// GIN indexes of the search documents. GIN reads a prefix by gathering every posting of
// every lexeme that starts with it into one bitmap, and cannot skip through it: three
// common prefixes cost tens of milliseconds, the same three exact terms one or two. The
// keys in "SearchLexeme" (every lexeme of every document: letters and digits as they are,
// a hyphenated word up to its first hyphen, any other up to its first character that is
// none of these) list what a prefix can match, so "fetch:*" becomes ('fetch' | 'fetcher'
// | 'fetch-api.':*): the same rows, a narrow prefix left only for lexemes with dots and the
// like ("fetch-api.example.com").
// A hyphenated word's key ("fetch-", of "fetch-weather-2n9k") is dropped when its first
// part's lexeme ("fetch") is among the terms: the parser indexes every part of a
// hyphenated word beside the whole, so that term matches every such document already, and
// a prefix term, even a narrow one, costs a GIN scan several times an exact term's.
// Only the matching changes; ranking keeps the query as typed (ts_rank counts operands).
import 'server-only';
import type { Db } from '../db';

/** Past this many keys a prefix stays a prefix (a short one, "fe", still being typed). */
const MAX_KEYS = 24;

/** The key a lexeme is listed under (the same expression as the migrations and refresh-skill-search.ts). */
export function lexemeKey(lexeme: string): string {
  if (/^[a-z0-9]+$/.test(lexeme)) return lexeme;
  if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(lexeme)) return lexeme.slice(0, lexeme.indexOf('-') + 1);
  return /^[a-z0-9-]*[^a-z0-9-]/.exec(lexeme)?.[0] ?? lexeme;
}

/** A hyphenated word's key ("fetch-"): the documents it matches hold its first part's lexeme too. */
const HYPHENATED = /^[a-z0-9]+-$/;

/** A tsquery literal: quoted, with quotes doubled and backslashes escaped. */
const literal = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery text of `to_tsquery('english', tsq)` with each prefix of letters and digits
 * replaced by the terms of its keys, in one round trip; to be used as `$1::tsquery`.
 */
export async function expandPrefixes(db: Db, tsq: string): Promise<string> {
  // (with each hyphenated word's key, the lexemes of its first part)
  const [row] = await db.$queryRaw<Array<{ query: string; prefixes: Array<{ p: string; keys: Array<{ key: string; parts: string[] | null }> | null }> | null }>>`
    WITH q AS (SELECT to_tsquery('english', ${tsq})::text AS query)
    SELECT q.query, (
      SELECT json_agg(json_build_object('p', p, 'keys', (
        SELECT json_agg(json_build_object('key', key, 'parts',
                 CASE WHEN key ~ '^[a-z0-9]+-$' THEN tsvector_to_array(to_tsvector('english', rtrim(key, '-'))) END))
        FROM (SELECT key FROM "SearchLexeme" WHERE key ^@ p LIMIT ${MAX_KEYS + 1}) k)))
      FROM (SELECT DISTINCT m[1] AS p FROM regexp_matches(q.query, '''([a-z0-9]+)'':\\*', 'g') AS m) ps) AS prefixes
    FROM q`;
  let query = row.query;
  for (const { p, keys } of row.prefixes ?? []) {
    const entries = keys ?? [];
    if (entries.length > MAX_KEYS) continue;
    const all = new Set(entries.map((k) => k.key));
    const list = entries.filter(({ key, parts }) => !(HYPHENATED.test(key) && (parts ?? []).some((l) => all.has(l)))).map((k) => k.key);
    // no key: nothing has this prefix; a term that matches nothing keeps the query valid
    const terms = list.length ? list.map((k) => (k === p || /^[a-z0-9]+$/.test(k) ? literal(k) : `${literal(k)}:*`)) : [literal(p)];
    query = query.split(`'${p}':*`).join(terms.length > 1 ? `( ${terms.join(' | ')} )` : terms[0]);
  }
  return query;
}
