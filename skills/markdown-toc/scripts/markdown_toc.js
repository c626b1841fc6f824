// Pure computation: runs in a sandbox without Node APIs.
function slug(text, seen) {
  const base = text
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}

function plain(text) {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_~]/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

export default async function handler(args) {
  const md = String(args?.markdown ?? '');
  const min = Math.min(6, Math.max(1, Number(args?.min_level) || 1));
  const max = Math.min(6, Math.max(min, Number(args?.max_level) || 3));
  const bullet = args?.bullet ?? '-';
  const seen = new Map();
  const headings = [];
  let fence = null;
  for (const line of md.split(/\r?\n/)) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}(#{1,6})\s+(.+?)\s*$/.exec(line);
    if (!h) continue;
    const text = plain(h[2]);
    const anchor = slug(text, seen);
    headings.push({ level: h[1].length, text, anchor });
  }
  const included = headings.filter((h) => h.level >= min && h.level <= max);
  const top = included.length ? Math.min(...included.map((h) => h.level)) : min;
  const markdown = included.map((h) => `${'  '.repeat(h.level - top)}${bullet} [${h.text}](#${h.anchor})`).join('\n');
  return { markdown, headings: included };
}
