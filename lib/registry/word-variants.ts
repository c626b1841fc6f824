// The spellings one edit away from a query word (Norvig's corrector): a swap of two
// neighbouring letters ("wrod" -> "word"), a letter dropped, changed or added; and the
// two-word splits of a word typed without its space ("wordcount" -> "word" "count").
// Looked up exactly in the vocabulary (its primary key), which finds a transposition
// that trigram similarity misses in short words.
import 'server-only';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export type Variant = { word: string; kind: 'swap' | 'change' | 'drop' | 'add' };

/** Every distinct spelling one edit away, swaps first (the likeliest slip), then changes, drops, adds. */
export function editVariants(w: string): Variant[] {
  const seen = new Set<string>([w]);
  const out: Variant[] = [];
  const add = (word: string, kind: Variant['kind']) => {
    if (word.length < 3 || seen.has(word)) return;
    seen.add(word);
    out.push({ word, kind });
  };
  for (let i = 0; i + 1 < w.length; i++) add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2), 'swap');
  for (let i = 0; i < w.length; i++) for (const c of LETTERS) if (c !== w[i]) add(w.slice(0, i) + c + w.slice(i + 1), 'change');
  for (let i = 0; i < w.length; i++) add(w.slice(0, i) + w.slice(i + 1), 'drop');
  for (let i = 0; i <= w.length; i++) for (const c of LETTERS) add(w.slice(0, i) + c + w.slice(i), 'add');
  return out;
}

/** The ways to cut a word into two words of 3+ letters each. */
export function twoWordSplits(w: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 3; i <= w.length - 3; i++) out.push([w.slice(0, i), w.slice(i)]);
  return out;
}
