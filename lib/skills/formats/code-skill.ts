// Code skill: <name>.skill.js / .skill.ts, default export async (ctx, args), optional
// `export const frontmatter = {...}` read from the AST (never imported).

import { ptr } from '../diagnostic-sink';
import { canonicalToolName, isValidToolName } from '../names';
import { newTool, type Pkg } from '../package';
import { applySkillFields, applyToolFields, readFrontmatterObject } from '../skill-frontmatter';
import { parseTsModule } from '../ts-literal';
import { startSingleFileSkill } from './signed-file';
import type { SkillManifest } from '../types';

export function readCodeSkill(pkg: Pkg, rel: string): SkillManifest {
  const { manifest: m, base, stem, text, scope } = startSingleFileSkill(pkg, rel, /\.skill\.(m?js|ts)$/i, 'code-skill');
  if (text === null || scope === null) return m;
  const mod = parseTsModule(text, rel, { maxDepth: pkg.opts.limits.maxDepth });
  for (const e of mod.syntaxErrors.slice(0, 3)) scope.error('code/syntax-error', e.message, undefined, e.line);
  if (!mod.syntaxErrors.length && !mod.hasDefaultExport) scope.error('code/no-default-export', 'a code skill must export a default async function (ctx, args)', undefined, 1);
  const t = newTool(canonicalToolName(m.name), m.name);
  t.handler = { kind: /\.ts$/i.test(rel) ? 'ts' : 'js', ref: rel };
  m.tools = [t];
  const exp = mod.exports.get('frontmatter');
  if (!exp) {
    scope.error('code/frontmatter-missing', 'export const frontmatter = { name, description, metadata } is missing: the skill has no description', undefined, 1);
    return m;
  }
  if ('nonLiteral' in exp) {
    scope.error('code/frontmatter-not-literal', `frontmatter must be a literal object (read without running code): ${exp.nonLiteral}`, undefined, exp.line);
    return m;
  }
  const fm = readFrontmatterObject(exp.value, pkg, scope.with(exp.lines), { fallbackName: m.name, fallbackFrom: 'file', fallbackSource: stem, agentApps: true });
  if (!fm) return m;
  if (fm.name) {
    m.name = fm.name;
    if (fm.name !== stem) scope.warn('skill/name-file-mismatch', `name "${fm.name}" differs from the file name "${base}"`, ptr('', 'name'));
  }
  applySkillFields(m, fm);
  if (isValidToolName(canonicalToolName(m.name))) t.name = canonicalToolName(m.name);
  t.sourceName = m.name;
  applyToolFields(t, fm, m.description, scope.with(exp.lines));
  if (fm.delegate) scope.warn('code/delegate-ignored', 'a code skill is its own handler; metadata.delegate is ignored', '/metadata/delegate');
  return m;
}
