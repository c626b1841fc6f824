// Pure computation: runs in a sandbox without Node APIs (the sandbox's CPU limit
// stops catastrophic backtracking).
export default async function regexTest(ctx, { pattern, flags = '', inputs, replacement }) {
  let re;
  try {
    re = new RegExp(pattern, flags.includes('g') ? flags : flags + 'g');
  } catch (e) {
    return { valid: false, error: String(e.message ?? e) };
  }
  const results = inputs.map((input) => {
    const matches = [];
    for (const m of input.matchAll(re)) {
      matches.push({ match: m[0], index: m.index, groups: m.slice(1), named: m.groups ?? null });
      if (matches.length >= 1000) break;
      if (!flags.includes('g')) break;
    }
    const out = { input, matched: matches.length > 0, matches };
    if (replacement !== undefined) out.replaced = input.replace(new RegExp(pattern, flags), replacement);
    return out;
  });
  return { valid: true, source: re.source, flags, results };
}
