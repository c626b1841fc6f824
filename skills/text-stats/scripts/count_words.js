// Pure computation: runs in a sandbox without Node APIs.
const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu;

export default async function handler(args) {
  const text = String(args?.text ?? '');
  const wpm = Number(args?.words_per_minute) > 0 ? Number(args.words_per_minute) : 238;
  const words = text.match(WORD) ?? [];
  const sentences = text.split(/(?<=[.!?…])\s+|\n{2,}/).filter((s) => /[\p{L}\p{N}]/u.test(s));
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
  const lines = text === '' ? 0 : text.split(/\r?\n/).length;
  const minutes = words.length / wpm;
  return {
    words: words.length,
    characters: [...text].length,
    charactersNoSpaces: [...text.replace(/\s+/g, '')].length,
    sentences: sentences.length,
    paragraphs: paragraphs.length,
    lines,
    averageWordsPerSentence: sentences.length ? Math.round((words.length / sentences.length) * 10) / 10 : 0,
    readingTimeSeconds: Math.round(minutes * 60),
    readingTime: minutes < 1 ? 'less than a minute' : `${Math.round(minutes)} min`,
  };
}
