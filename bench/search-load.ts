// Loading the generated corpus straight into the tables (no publish path: 100,000
// publishes would measure publishing), and the benchmark's query mix.
import crypto from 'node:crypto';
import type pg from 'pg';
import type { SearchQuery } from '../lib/registry/search-skills';
import { FORMATS, NOUNS, VERBS, pick, typo, type GeneratedSkill } from './search-corpus';

const BATCH = 5_000;
const id = () => crypto.randomBytes(12).toString('hex');

/** What the query mix needs of a skill (the whole corpus does not fit in memory at 1,000,000). */
export type LoadedSkill = Pick<GeneratedSkill, 'scope' | 'name'> & { tools: Array<{ name: string }> };

/**
 * Drops the secondary indexes of `tables` (those no constraint needs) and returns
 * what recreates them: one sorted build per index is many times faster than keeping a GIN
 * index up to date row by row.
 */
export async function dropIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
    [tables],
  );
  const dropped: string[] = [];
  for (const r of rows) {
    // an index a foreign key leans on stays (the drop fails, nothing changes)
    const ok = await client.query(`DROP INDEX "${r.name}"`).then(
      () => true,
      () => false,
    );
    if (ok) dropped.push(r.def);
  }
  return dropped;
}

export async function createIndexes(client: pg.Client, defs: string[]): Promise<void> {
  await client.query(`SET maintenance_work_mem = '1GB'`);
  for (const def of defs) await client.query(def);
}

/**
 * Loads `count` skills from `next` in batches: each skill row already carries its latest
 * version and the facets refresh-skill-search.ts would compute (so no row is written
 * twice), with the foreign-key and copy triggers off for the load (session_replication_role,
 * the rows are consistent by construction). Returns what the query mix needs.
 */
export async function load(client: pg.Client, count: number, next: () => GeneratedSkill, onBatch?: (done: number) => void): Promise<LoadedSkill[]> {
  const loaded: LoadedSkill[] = [];
  // the typo-correction vocabulary, by the rule of refresh-skill-search.ts (lower case,
  // split on other characters, words of 3 to 32 letters), in JavaScript: Postgres's
  // regular expressions took most of the load's time
  const words = new Set<string>();
  const learn = (text: string) => {
    for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) if (w.length >= 3 && w.length <= 32 && /^[a-z]+$/.test(w)) words.add(w);
  };
  await client.query(`SET session_replication_role = replica`);
  for (let off = 0; off < count; off += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - off) }, next);
    for (const s of batch) {
      loaded.push({ scope: s.scope, name: s.name, tools: s.tools.slice(0, 1).map((t) => ({ name: t.name })) });
      learn(`${s.name} ${s.description} ${s.tags.join(' ')} ${s.tools.map((t) => `${t.name} ${t.description}`).join(' ')} ${s.instructions.slice(0, 20_000)}`);
    }
    const skillIds = batch.map(id);
    const versionIds = batch.map(id);
    const now = Date.now();
    await client.query('BEGIN');
    await client.query(`INSERT INTO "Scope" (name, kind) SELECT DISTINCT unnest($1::text[]), 'user'::"ScopeKind" ON CONFLICT DO NOTHING`, [batch.map((s) => s.scope)]);
    await client.query(
      `INSERT INTO "Skill" (id, "scopeName", name, description, format, tags, downloads, stars, "publishedAt", "updatedAt",
                            "latestVersionId", "toolCount", "tokenGated", signed)
       SELECT a.id, a.scope, a.name, a.description, a.format, string_to_array(a.tags, ','), a.downloads, a.stars, a.published, now(),
              a.vid, a.tools, a.gated, a.signed
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::timestamptz[],
                   $10::text[], $11::int[], $12::bool[], $13::bool[])
         AS a(id, scope, name, description, format, tags, downloads, stars, published, vid, tools, gated, signed)`,
      [
        skillIds,
        batch.map((s) => s.scope),
        batch.map((s) => s.name),
        batch.map((s) => s.description),
        batch.map((s) => s.format),
        batch.map((s) => s.tags.join(',')),
        batch.map((s) => s.downloads),
        batch.map((s) => s.stars),
        batch.map((s) => new Date(now - s.daysAgo * 86_400_000).toISOString()),
        versionIds,
        batch.map((s) => s.tools.length),
        batch.map((s) => s.tools.some((t) => t.gated)),
        batch.map((s) => s.signed),
      ],
    );
    await client.query(
      `INSERT INTO "SkillVersion" (id, "skillId", version, manifest, "contentHash", "sizeBytes")
       SELECT a.vid, a.sid, '1.0.0', a.manifest::jsonb, md5(a.manifest), length(a.manifest)
       FROM unnest($1::text[], $2::text[], $3::text[]) AS a(vid, sid, manifest)`,
      [
        versionIds,
        skillIds,
        batch.map((s) =>
          JSON.stringify({
            instructions: s.instructions,
            signature: s.signed ? { timestamp: '2026-01-01T00:00:00Z', hash: 'x', signature: 'x', keyId: 'x', verified: true } : null,
          }),
        ),
      ],
    );
    const tools = batch.flatMap((s, k) => s.tools.map((t) => ({ vid: versionIds[k], ...t })));
    await client.query(
      `INSERT INTO "Tool" (id, "versionId", name, description, manifest, capabilities, "tokenGated")
       SELECT md5(random()::text || a.vid || a.name), a.vid, a.name, a.description, '{}'::jsonb, '{}', a.gated
       FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[]) AS a(vid, name, description, gated)`,
      [tools.map((t) => t.vid), tools.map((t) => t.name), tools.map((t) => t.description), tools.map((t) => t.gated)],
    );
    await client.query('COMMIT');
    onBatch?.(off + batch.length);
  }
  await client.query(`SET session_replication_role = DEFAULT`);
  await client.query(`INSERT INTO "SearchWord" (word) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [[...words].sort()]);
  return loaded;
}

/** The bench's query mix. `homePage`: what the home page asks (q, format, sort) goes as the
 *  home page sends it, 60 a page with the counts per format; `false` keeps the mix as it
 *  was measured before (20 a page, no facets). */
export function queries(r: () => number, skills: LoadedSkill[], homePage = true): Array<{ kind: string; query: SearchQuery }> {
  const mix = queryMix(r, skills);
  if (!homePage) return mix;
  const fromHome = (q: SearchQuery) => Object.keys(q).every((k) => k === 'q' || k === 'format' || k === 'sort');
  return mix.map((m) => (fromHome(m.query) ? { ...m, query: { ...m.query, perPage: 60, facets: true } } : m));
}

function queryMix(r: () => number, skills: LoadedSkill[]): Array<{ kind: string; query: SearchQuery }> {
  const out: Array<{ kind: string; query: SearchQuery }> = [];
  const word = () => (r() < 0.6 ? pick(r, NOUNS, 1.2) : pick(r, VERBS, 1.2));
  for (let i = 0; i < 12; i++) out.push({ kind: 'word', query: { q: word() } });
  for (let i = 0; i < 10; i++) out.push({ kind: 'two-words', query: { q: `${pick(r, VERBS, 1.2)} ${pick(r, NOUNS, 1.2)}` } });
  for (let i = 0; i < 10; i++)
    out.push({
      kind: 'typo',
      query: {
        q: typo(
          r,
          pick(
            r,
            NOUNS.filter((n) => n.length >= 6),
            1.1,
          ),
        ),
      },
    });
  for (let i = 0; i < 4; i++)
    out.push({
      kind: 'typo-two-words',
      query: {
        q: `${typo(
          r,
          pick(
            r,
            VERBS.filter((n) => n.length >= 5),
          ),
        )} ${pick(r, NOUNS)}`,
      },
    });
  for (let i = 0; i < 6; i++) out.push({ kind: 'tool-name', query: { q: skills[Math.floor(r() * skills.length)].tools[0].name } });
  for (let i = 0; i < 3; i++) out.push({ kind: 'skill-name', query: { q: skills[Math.floor(r() * skills.length)].name.replace(/-[0-9a-z]+$/, '') } });
  for (let i = 0; i < 5; i++) out.push({ kind: 'word+format', query: { q: word(), format: FORMATS[i % FORMATS.length] } });
  for (let i = 0; i < 3; i++) out.push({ kind: 'tag', query: { tag: pick(r, NOUNS) } });
  for (let i = 0; i < 3; i++) out.push({ kind: 'word+gated', query: { q: word(), gated: true } });
  for (let i = 0; i < 2; i++) out.push({ kind: 'word+signed', query: { q: word(), signed: true } });
  for (let i = 0; i < 3; i++) out.push({ kind: 'scope', query: { scope: skills[Math.floor(r() * skills.length)].scope } });
  for (const sort of ['downloads', 'recent', 'stars'] as const) {
    out.push({ kind: `word+sort-${sort}`, query: { q: word(), sort } });
    out.push({ kind: `browse-${sort}`, query: { sort } });
  }
  for (let i = 0; i < 3; i++) out.push({ kind: 'word+page-5', query: { q: word(), page: 5 } });
  out.push({ kind: 'browse-format-page-20', query: { format: 'malv', page: 20 } });
  return out;
}

/** What the suggestions get while someone types: every prefix (from 2 letters) of skill
 *  names, of two words, and of two words with a swapped pair of letters ("wrod cuont"). */
export function suggestQueries(r: () => number, skills: LoadedSkill[]): Array<{ kind: string; q: string }> {
  const swap = (w: string) => {
    const i = Math.floor(r() * Math.max(1, w.length - 1));
    return w.slice(0, i) + (w[i + 1] ?? '') + w[i] + w.slice(i + 2);
  };
  const typed: Array<{ kind: string; text: string }> = [];
  for (let i = 0; i < 6; i++) typed.push({ kind: 'suggest-skill-name', text: skills[Math.floor(r() * skills.length)].name.replace(/-[0-9a-z]+$/, '').replace(/-/g, ' ') });
  for (let i = 0; i < 6; i++) typed.push({ kind: 'suggest-two-words', text: `${pick(r, VERBS, 1.2)} ${pick(r, NOUNS, 1.2)}` });
  for (let i = 0; i < 6; i++)
    typed.push({
      kind: 'suggest-swapped',
      text: `${swap(
        pick(
          r,
          VERBS.filter((w) => w.length >= 4),
          1.2,
        ),
      )} ${swap(
        pick(
          r,
          NOUNS.filter((w) => w.length >= 4),
          1.2,
        ),
      )}`,
    });
  const out: Array<{ kind: string; q: string }> = [];
  for (const t of typed) for (let n = 2; n <= t.text.length; n++) if (t.text[n - 1] !== ' ') out.push({ kind: t.kind, q: t.text.slice(0, n) });
  return out;
}
