// The typo-correction vocabulary ("SearchWord": words of public skills) held in memory, so
// correcting a query costs no round trip: suggestions run per keystroke, and on a loaded
// database a round trip alone can take tens of milliseconds. Reloaded in the background
// once a minute (a word published on another instance is known here within that), and at
// once after a publish on this instance. Past MAX_WORDS the vocabulary stays in Postgres
// (search-skills.ts then looks words up there).
import 'server-only';
import type { Db } from '../db';

const TTL_MS = 60_000;
const MAX_WORDS = 500_000;

export type Vocabulary = { words: string[]; set: Set<string>; loadedAt: number };

type State = { current: Vocabulary | null; tooLargeAt: number | null; loading: Promise<Vocabulary | null> | null; generation: number };
// shared through globalThis: Next.js may load this module once per route bundle
const state: State = ((globalThis as { __skillyardVocabulary?: State }).__skillyardVocabulary ??= { current: null, tooLargeAt: null, loading: null, generation: 0 });

/** The vocabulary, or null when it is too large to hold (then look words up in Postgres). */
export async function vocabulary(db: Db): Promise<Vocabulary | null> {
  const fresh = state.current && Date.now() - state.current.loadedAt < TTL_MS;
  if (fresh) return state.current;
  if (state.tooLargeAt !== null && Date.now() - state.tooLargeAt < TTL_MS) return null;
  if (!state.loading) {
    const generation = state.generation;
    state.loading = load(db)
      .then((v) => {
        if (generation === state.generation) state.current = v;
        return v;
      })
      .finally(() => {
        state.loading = null;
      });
  }
  // a stale vocabulary answers while the new one loads
  if (state.current) {
    state.loading.catch(() => {});
    return state.current;
  }
  return state.loading;
}

async function load(db: Db): Promise<Vocabulary | null> {
  const rows = await db.$queryRaw<Array<{ word: string }>>`SELECT word FROM "SearchWord" LIMIT ${MAX_WORDS + 1}`;
  if (rows.length > MAX_WORDS) {
    state.tooLargeAt = Date.now();
    return null;
  }
  state.tooLargeAt = null;
  const words = rows.map((r) => r.word).sort();
  return { words, set: new Set(words), loadedAt: Date.now() };
}

/** After this instance added words (a publish): the next correction reads them. */
export function forgetVocabulary(): void {
  state.generation++;
  state.current = null;
}

/** Whether some known word starts with `prefix` (binary search over the sorted words). */
export function startsKnownWord(v: Vocabulary, prefix: string): boolean {
  let lo = 0;
  let hi = v.words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v.words[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < v.words.length && v.words[lo].startsWith(prefix);
}
