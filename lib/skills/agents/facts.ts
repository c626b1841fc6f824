import { splitFrontmatter } from '../frontmatter';
import { isPlainObject } from '../package';
import type { LoaderFacts } from './types';

/**
 * What the loaders see in a SKILL.md: its fences, whether its YAML parsed (`parsed`, the
 * reader's own parse, or null), its raw name/description, and which keys span lines.
 */
export function skillFileFacts(text: string, marker: string, dirName: string | null, parsed: unknown): LoaderFacts {
  const split = splitFrontmatter(text);
  const fence: LoaderFacts['fence'] = split.yaml === null ? 'none' : split.unterminated ? 'unterminated' : split.indentedClose ? 'indented' : 'ok';
  const fm = isPlainObject(parsed) ? parsed : null;
  const meta = fm && isPlainObject(fm.metadata) ? fm.metadata : null;
  const multilineKeys: string[] = [];
  let metadataMultiline = false;
  if (split.yaml !== null) {
    // a top-level key followed by indented or list lines spans several lines
    const lines = split.yaml.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^([^\s#:][^:]*):(.*)$/.exec(lines[i]);
      if (!m) continue;
      const key = m[1].trim();
      const rest = m[2].trim();
      const next = lines[i + 1] ?? '';
      const nextContinues = /^[ \t]+\S/.test(next) || /^-(\s|$)/.test(next);
      if (rest === '' ? nextContinues : /^[|>]/.test(rest) || /^[ \t]+\S/.test(next)) {
        if (key === 'metadata') metadataMultiline = true;
        else multilineKeys.push(key);
      }
    }
  }
  return {
    format: 'agent-skill',
    marker,
    dirName,
    viaSymlink: false,
    fence,
    yamlOk: fm !== null,
    name: fm ? fm.name : undefined,
    description: fm ? fm.description : undefined,
    shortDescription: meta ? (meta['short-description'] ?? meta.shortDescription ?? meta.short_description) : undefined,
    multilineKeys,
    metadataMultiline,
    hasBodyText: split.body.trim() !== '',
  };
}
