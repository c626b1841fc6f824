// Prefixes spelled out as the terms of their lexemes' keys match exactly what the prefix
// matched (checked by Postgres against documents with hyphens, dots and plain words), and
// a publish records the keys of its documents.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { expandPrefixes, lexemeKey } from './expand-prefixes';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';

// letters only, unique to this run
const tag = Date.now()
  .toString(36)
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]);
const p = `vexil${tag}`;

async function matches(query: string, docs: string[]): Promise<boolean[]> {
  const rows = await testDb().$queryRaw<Array<{ m: boolean }>>`
    SELECT to_tsvector('english', d) @@ ${query}::tsquery AS m FROM unnest(${docs}::text[]) WITH ORDINALITY AS u(d, i) ORDER BY i`;
  return rows.map((r) => r.m);
}

describe('expandPrefixes', () => {
  it('keys a lexeme by its letters and digits, a hyphenated word up to its first hyphen, any other up to its first other character', () => {
    expect(lexemeKey('fetch')).toBe('fetch');
    expect(lexemeKey('fetch-weather-2n9k')).toBe('fetch-');
    expect(lexemeKey('fetch.example.com')).toBe('fetch.');
    expect(lexemeKey('fetch-api.example.com')).toBe('fetch-api.');
    expect(lexemeKey('café')).toBe('café');
  });

  it('matches the same documents as the prefix it replaces', async () => {
    // (hyphenated words whose first part is the prefix's word, or longer than its stem, or a
    // stop word; a host name with a hyphen before its dot)
    const docs = [
      `${p}-weather-2n9k`,
      `${p}ing things`,
      `${p}.example.com`,
      `${p}er`,
      `plain words only`,
      `${p} and more`,
      `x${p}`,
      `${p}ings-tools`,
      `${p}-api.example.com only`,
      `the-best`,
      `zz ${p}er-9x`,
    ];
    await testDb().$executeRaw`
      INSERT INTO "SearchLexeme" (key)
      SELECT DISTINCT CASE WHEN l ~ '^[a-z0-9]+$' THEN l WHEN l ~ '^[a-z0-9]+(-[a-z0-9]+)+$' THEN substring(l FROM '^[a-z0-9]+-')
                           ELSE coalesce(substring(l FROM '^[a-z0-9-]*[^a-z0-9-]'), l) END
      FROM (SELECT unnest(tsvector_to_array(to_tsvector('english', d))) AS l FROM unnest(${docs}::text[]) AS d) x
      ON CONFLICT DO NOTHING`;
    for (const tsq of [`${p}:*`, `${p}:* & weather:*`, `(${p}:* | nothing) & !plain:*`, `${p}i:*`, `${p}ings:*`, `${p}e:*`, `th:*`]) {
      const expanded = await expandPrefixes(testDb(), tsq);
      expect(expanded).not.toMatch(/vexil[a-z]*':\*/);
      const asTyped = (await testDb().$queryRaw<Array<{ t: string }>>`SELECT to_tsquery('english', ${tsq})::text AS t`)[0].t;
      expect(await matches(expanded, docs)).toEqual(await matches(asTyped, docs));
    }
    expect(await matches(await expandPrefixes(testDb(), `${p}:*`), docs)).toEqual([true, true, true, true, false, true, false, true, true, false, true]);
    // a hyphenated word is matched through its first part's term, not a prefix of its own
    expect(await expandPrefixes(testDb(), `${p}:*`)).not.toContain(`'${p}-':*`);
    expect(await expandPrefixes(testDb(), `${p}:*`)).toContain(`'${p}-api.':*`);
  });

  it('leaves a prefix that matches no key a term that matches nothing', async () => {
    expect(await expandPrefixes(testDb(), `qqq${tag}:*`)).not.toContain(':*');
  });

  it('learns the keys of a published skill', async () => {
    const db = testDb();
    const owner = (await db.user.create({ data: { handle: `xp${tag}` } })).id;
    await db.scope.create({ data: { name: `xp${tag}`, kind: 'user', userId: owner } });
    const pkg = readUpload({
      kind: 'files',
      files: [
        { path: `zorp${tag}-tool/SKILL.md`, content: new TextEncoder().encode(`---\nname: zorp${tag}-tool\ndescription: Zorp.\n---\n\nSee glimmer${tag}.example.com today.\n`) },
      ],
    });
    await publishVersion(db, { scope: `xp${tag}`, manifest: pkg.manifest!, files: pkg.files, version: '1.0.0', visibility: 'private', publishedById: owner });
    const keys = await db.$queryRaw<Array<{ key: string }>>`SELECT key FROM "SearchLexeme" WHERE key ^@ ${`zorp${tag}`} OR key ^@ ${`glimmer${tag}`} ORDER BY key`;
    expect(keys.map((k) => k.key)).toEqual(expect.arrayContaining([`glimmer${tag}.`, `zorp${tag}-`]));
  });
});
