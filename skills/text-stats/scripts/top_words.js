// Pure computation: runs in a sandbox without Node APIs.
const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu;
const STOP = new Set(
  'a an and are as at be but by for from had has have he her his i if in into is it its me my no not of on or our she so than that the their them then there these they this to too us was we were what when which who will with you your'.split(' '),
);

export default async function handler(args) {
  const text = String(args?.text ?? '');
  const limit = Math.max(1, Math.min(100, Math.floor(Number(args?.limit) || 10)));
  const counts = new Map();
  for (const w of text.toLowerCase().match(WORD) ?? []) {
    if (!args?.include_stop_words && STOP.has(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const top = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([word, count]) => ({ word, count }));
  return { distinctWords: counts.size, top };
}
