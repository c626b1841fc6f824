// Markdown with YAML frontmatter (SKILL.md, *.skill.md, inline://markdown delegates).
// gray-matter is not used here: it parses with js-yaml, which has no alias budget.

import { SIGNATURE_LINE } from './signature';

export type SplitMarkdown = {
  /** YAML source between the fences, or null when the file has no frontmatter */
  yaml: string | null;
  body: string;
  /** 1-based line of the first YAML line (to offset YAML diagnostics) */
  yamlLine: number;
  /** the closing fence is missing */
  unterminated: boolean;
  /** 1-based line of a closing `---` written with leading spaces (accepted, as Codex trims lines) */
  indentedClose?: number;
};

export function splitFrontmatter(text: string): SplitMarkdown {
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let skipped = 0;
  // A Rye-style signature comment may precede the frontmatter.
  const firstEnd = t.indexOf('\n');
  const first = firstEnd < 0 ? t : t.slice(0, firstEnd);
  if (SIGNATURE_LINE.test(first) && firstEnd >= 0) {
    t = t.slice(firstEnd + 1);
    skipped = 1;
  }
  const open = /^---[ \t]*\r?\n/.exec(t);
  if (!open) return { yaml: null, body: t, yamlLine: 1 + skipped, unterminated: false };
  const rest = t.slice(open[0].length);
  let close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m.exec(rest);
  let indentedClose: number | undefined;
  if (!close) {
    // Codex trims each line before looking for the closing fence: `  ---` closes there too
    close = /^[ \t]+---[ \t]*(?:\r?\n|$)/m.exec(rest);
    if (close) indentedClose = 2 + skipped + rest.slice(0, close.index).split('\n').length - 1;
  }
  if (!close) return { yaml: rest, body: '', yamlLine: 2 + skipped, unterminated: true };
  return {
    yaml: rest.slice(0, close.index),
    body: rest.slice(close.index + close[0].length),
    yamlLine: 2 + skipped,
    unterminated: false,
    ...(indentedClose ? { indentedClose } : {}),
  };
}
