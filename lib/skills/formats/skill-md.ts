// Single-file skill: <name>.skill.md, itself one tool (markdown, or its delegate).

import { resolveDelegate } from '../delegate';
import { canonicalToolName, isValidToolName, nameFromPath } from '../names';
import { newTool, type Pkg } from '../package';
import { applySkillFields, applyToolFields, checkInstructions, readMarkdownSkill } from '../skill-frontmatter';
import { startSingleFileSkill } from './signed-file';
import type { SkillManifest } from '../types';

export function readSkillMd(pkg: Pkg, rel: string): SkillManifest {
  const { manifest: m, base, stem, text, scope } = startSingleFileSkill(pkg, rel, /\.skill\.md$/i, 'skill-md');
  if (text === null || scope === null) return m;
  const { fm, body, bodyLine, fmScope } = readMarkdownSkill(text, pkg, scope, { fallbackName: m.name, fallbackFrom: 'file', fallbackSource: stem, agentApps: true });
  m.instructions = checkInstructions(body, pkg, scope, bodyLine);
  if (!fm) return m;
  if (fm.name) {
    m.name = fm.name;
    if (fm.name !== stem) fmScope.warn('skill/name-file-mismatch', `name "${fm.name}" differs from the file name "${base}" (expected ${fm.name}.skill.md)`, '/name');
  }
  applySkillFields(m, fm);
  // An invalid name is reported once (skill/name-invalid); the tool ref still has to be valid.
  const t = newTool(isValidToolName(canonicalToolName(m.name)) ? canonicalToolName(m.name) : nameFromPath(stem), m.name);
  applyToolFields(t, fm, m.description, fmScope);
  t.handler = { kind: 'markdown', ref: rel };
  if (fm.delegate) {
    const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const d = resolveDelegate(fm.delegate, pkg, fmScope, '/metadata/delegate', dir);
    if (d) {
      t.handler = { kind: d.kind, ref: d.ref };
      if (d.file && !m.files.includes(d.file)) m.files.push(d.file);
    }
  } else if (!m.instructions) scope.warn('skill/instructions-empty', 'a markdown tool without a delegate needs a body: it is the prompt the tool runs', undefined, bodyLine);
  m.tools = [t];
  return m;
}
