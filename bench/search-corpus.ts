// Deterministic generated skills for bench/search: realistic words (a Zipf-like pick
// from a vocabulary of tool-ish English), tool names made of verbs and nouns, five
// formats, tags, downloads with a long tail.

export const FORMATS = ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'] as const;

export const VERBS = `fetch get list create update delete search find parse convert format validate check count summarize translate
extract render send read write merge split sort filter compress encrypt decrypt sign verify schedule track monitor analyze
detect classify generate resize crop upload download sync export import backup restore deploy build test lint review
compare diff query index scan clean normalize slugify tokenize measure estimate calculate forecast plan book order pay`.split(/\s+/);

export const NOUNS = `weather forecast city invoice receipt email calendar event meeting contact repository issue pull request commit branch
release tag file folder image photo video audio podcast transcript subtitle document pdf spreadsheet csv json yaml xml
markdown html table chart graph report dashboard metric log trace alert incident ticket customer order product price
currency stock crypto wallet payment subscription account user team project task note reminder todo bookmark link url
domain certificate dns server container cluster database query schema migration backup secret token password key
sentence paragraph word text language translation summary keyword topic sentiment entity address location map route
distance time date timezone duration unit temperature recipe ingredient nutrition workout sleep habit budget expense
tax loan mortgage flight hotel trip itinerary package shipment tracking inventory warehouse supplier vendor contract`.split(/\s+/);

export const FILLER = `the a an and or for with from into to of in on by using your their this that when then each every all any
quickly safely reliably exactly automatically locally securely without asking returns gives shows lists keeps makes
helps lets agents assistants users teams developers writers analysts support sales marketing finance engineering
data results details changes errors warnings limits options settings formats sources targets inputs outputs values
fast small simple clear precise accurate complete daily weekly monthly recent latest current previous next first last`.split(/\s+/);

/** mulberry32: a small seeded PRNG so every run loads the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf-ish: low indexes much more often than high ones. */
export function pick<T>(r: () => number, list: readonly T[], skew = 1.6): T {
  return list[Math.min(list.length - 1, Math.floor(list.length * Math.pow(r(), skew)))];
}

export type GeneratedSkill = {
  scope: string;
  name: string;
  format: (typeof FORMATS)[number];
  description: string;
  instructions: string;
  tags: string[];
  tools: Array<{ name: string; description: string; gated: boolean }>;
  downloads: number;
  stars: number;
  signed: boolean;
  daysAgo: number;
};

/** A sentence about a topic: mostly common words, the skill's own nouns and verbs,
 *  now and then any other noun or verb (uniformly, so no noun is in every document). */
function sentence(r: () => number, words: number, topic: { verbs: string[]; nouns: string[] }): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const x = r();
    out.push(
      x < 0.62
        ? pick(r, FILLER, 1.3)
        : x < 0.8
          ? topic.nouns[Math.floor(r() * topic.nouns.length)]
          : x < 0.9
            ? topic.verbs[Math.floor(r() * topic.verbs.length)]
            : x < 0.96
              ? NOUNS[Math.floor(r() * NOUNS.length)]
              : VERBS[Math.floor(r() * VERBS.length)],
    );
  }
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

export function generateSkill(r: () => number, i: number): GeneratedSkill {
  // popular topics are more common than rare ones, but no topic is everywhere
  const verb = pick(r, VERBS, 1.3);
  const noun = pick(r, NOUNS, 1.3);
  const noun2 = pick(r, NOUNS, 1.1);
  const topic = { verbs: [verb, pick(r, VERBS, 1.1)], nouns: [noun, noun2, pick(r, NOUNS, 1.1)] };
  const name = `${verb}-${noun}${r() < 0.5 ? `-${noun2}` : ''}-${i.toString(36)}`;
  const toolCount = 1 + Math.floor(r() * 3);
  const tools = Array.from({ length: toolCount }, (_, k) => {
    const tv = k === 0 ? verb : topic.verbs[1];
    const tn = k === 0 ? noun : topic.nouns[k];
    return { name: `${tv}-${tn}${k ? `-${k}` : ''}`, description: sentence(r, 8 + Math.floor(r() * 8), topic), gated: r() < 0.1 };
  });
  const description = `${verb[0].toUpperCase()}${verb.slice(1)} ${noun} ${noun2}: ${sentence(r, 10 + Math.floor(r() * 12), topic).toLowerCase()}`;
  // SKILL.md bodies run from a short paragraph to a few pages
  const instructions = Array.from({ length: 8 + Math.floor(Math.pow(r(), 2) * 40) }, () => sentence(r, 10 + Math.floor(r() * 14), topic)).join(' ');
  return {
    scope: `user${Math.floor(r() * 2000)}`,
    name,
    format: FORMATS[Math.floor(r() * FORMATS.length)],
    description,
    instructions,
    tags: Array.from(new Set([noun, noun2, verb].slice(0, 1 + Math.floor(r() * 3)))),
    tools,
    downloads: Math.floor(Math.pow(r(), 6) * 200_000),
    stars: Math.floor(Math.pow(r(), 8) * 5_000),
    signed: r() < 0.15,
    daysAgo: r() * 730,
  };
}

/** A misspelling: drop, double, swap or replace one letter inside the word. */
export function typo(r: () => number, word: string): string {
  if (word.length < 5) return word + word[word.length - 1];
  const i = 1 + Math.floor(r() * (word.length - 2));
  const kind = Math.floor(r() * 4);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word[i] + word.slice(i);
  if (kind === 2) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return word.slice(0, i) + 'aeiou'[Math.floor(r() * 5)] + word.slice(i + 1);
}
