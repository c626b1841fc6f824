// A query's prefixes ("fetch:*") rewritten as the exact terms they can match, for the
// GIN indexes of the search documents. GIN reads a prefix by gathering every posting of
// every lexeme that starts with it into one bitmap, and cannot skip through it: three
// common prefixes cost tens of milliseconds, the same three exact terms one or two. The
// keys in "SearchLexeme" (every lexeme of every document: letters and digits as they are,
// any other up to its first other character) list what a prefix can match, so
// "fetch:*" becomes ('fetch' | 'fetcher' | 'fetch-':*): the same rows, a narrow prefix
// left only for the lexemes with hyphens, dots and the like ("fetch-weather-2n9k").
// Only the matching changes; ranking keeps the query as typed (ts_rank counts operands).
import 'server-only';
import type { Db } from '../db';

/** Past this many keys a prefix stays a prefix (a short one, "fe", still being typed). */
const MAX_KEYS = 24;

/** The key a lexeme is listed under (the same expression as the migration and refresh-skill-search.ts). */
export function lexemeKey(lexeme: string): string {
  const m = /^[a-z0-9]*[^a-z0-9]/.exec(lexeme);
  return m ? m[0] : lexeme;
}

/** A tsquery literal: quoted, with quotes doubled and backslashes escaped. */
const literal = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery text of `to_tsquery('english', tsq)` with each prefix of letters and digits
 * replaced by the terms of its keys, in one round trip; to be used as `$1::tsquery`.
 */
export async function expandPrefixes(db: Db, tsq: string): Promise<string> {
  const [row] = await db.$queryRaw<Array<{ query: string; prefixes: Array<{ p: string; keys: string[] | null }> | null }>>`
    WITH q AS (SELECT to_tsquery('english', ${tsq})::text AS query)
    SELECT q.query, (
      SELECT json_agg(json_build_object('p', p, 'keys', (
        SELECT array_agg(key) FROM (SELECT key FROM "SearchLexeme" WHERE key ^@ p LIMIT ${MAX_KEYS + 1}) k)))
      FROM (SELECT DISTINCT m[1] AS p FROM regexp_matches(q.query, '''([a-z0-9]+)'':\\*', 'g') AS m) ps) AS prefixes
    FROM q`;
  let query = row.query;
  for (const { p, keys } of row.prefixes ?? []) {
    const list = keys ?? [];
    if (list.length > MAX_KEYS) continue;
    // no key: nothing has this prefix; a term that matches nothing keeps the query valid
    const terms = list.length ? list.map((k) => (k === p || /^[a-z0-9]+$/.test(k) ? literal(k) : `${literal(k)}:*`)) : [literal(p)];
    query = query.split(`'${p}':*`).join(terms.length > 1 ? `( ${terms.join(' | ')} )` : terms[0]);
  }
  return query;
}
