// Suggestions as you type and the typo handling they share with the full search, on the
// real database: a transposed pair of letters, split words, a word typed without its
// space, the last word as a prefix; and a private skill suggested only to its scope.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';
import { searchSkills } from './search-skills';
import { suggestSkills } from './suggest-skills';

const enc = new TextEncoder();
// letters only (the vocabulary keeps words of letters), unique to this run
const tag = Date.now()
  .toString(36)
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]);
const [w1, w2] = [`zebra${tag}`, `quill${tag}`];
const name = `${w1}-${w2}`;
let owner = '';

async function publish(skill: string, visibility: 'public' | 'private', description: string) {
  const pkg = readUpload({ kind: 'files', files: [{ path: `${skill}/SKILL.md`, content: enc.encode(`---\nname: ${skill}\ndescription: ${description}\n---\n\nHello.\n`) }] });
  await publishVersion(testDb(), { scope: `sg${tag}`, manifest: pkg.manifest!, files: pkg.files, version: '1.0.0', visibility, publishedById: owner });
}

beforeAll(async () => {
  const db = testDb();
  owner = (await db.user.create({ data: { handle: `sg${tag}` } })).id;
  await db.scope.create({ data: { name: `sg${tag}`, kind: 'user', userId: owner } });
  await publish(name, 'public', 'Counts things.');
  await publish(`hidden${tag}-${w2}`, 'private', 'A private one.');
});

const swap = (w: string) => w[1] + w[0] + w.slice(2);

describe('suggestSkills', () => {
  it('suggests by prefix while the last word is being typed', async () => {
    const out = await suggestSkills(testDb(), { q: `${w1} ${w2.slice(0, 7)}` });
    expect(out.suggestions.map((s) => s.name)).toContain(name);
    expect(out.suggestions[0]).toMatchObject({ scope: `sg${tag}`, description: 'Counts things.' });
  });

  it('finds the skill through transposed letters in both words ("wrod cuont")', async () => {
    const q = `${swap(w1)} ${swap(w2)}`;
    const out = await suggestSkills(testDb(), { q });
    expect(out.suggestions.map((s) => s.name)).toContain(name);
    expect(out.corrections[swap(w1)]).toContain(w1);
    const full = await searchSkills(testDb(), { q });
    expect(full.hits.map((h) => h.name)).toContain(name);
  });

  it('reads a swapped pair in a word still being typed as a prefix ("wrod" finds "words")', async () => {
    const typed = swap(w1.slice(0, 6));
    const out = await suggestSkills(testDb(), { q: typed });
    expect(out.corrections[typed]).toEqual([w1.slice(0, 6)]);
    expect(out.suggestions.map((s) => s.name)).toContain(name);
  });

  it('finds the skill when its two words are typed as one ("wordcount")', async () => {
    const full = await searchSkills(testDb(), { q: `${w1}${w2}` });
    expect(full.corrections[`${w1}${w2}`]).toEqual([`${w1} ${w2}`]);
    expect(full.hits.map((h) => h.name)).toContain(name);
  });

  it('suggests a private skill only to a viewer of its scope', async () => {
    const anon = await suggestSkills(testDb(), { q: `hidden${tag}` });
    expect(anon.suggestions.map((s) => s.name)).not.toContain(`hidden${tag}-${w2}`);
    // nor does its word widen an outsider's query (the vocabulary is public skills' only)
    expect(Object.values(anon.corrections).flat()).not.toContain(`hidden${tag}`);
    const member = await suggestSkills(testDb(), { q: `hidden${tag}`, viewerScopes: [`sg${tag}`] });
    expect(member.suggestions.map((s) => s.name)).toContain(`hidden${tag}-${w2}`);
  });

  it('answers nothing for a query too short to suggest from', async () => {
    expect(await suggestSkills(testDb(), { q: 'a' })).toEqual({ suggestions: [], corrections: {} });
    expect(await suggestSkills(testDb(), { q: '  !! ' })).toEqual({ suggestions: [], corrections: {} });
  });
});
