import { parseArgs } from 'node:util';
import { limitsFromEnv, readSkillsFromPath, type Diagnostic, type SkillManifest } from '../../lib/skills';
import { UsageError, type Command } from '../command';
import { defaultKeysDir, loadTrustedKeys } from '../keys';
import { styleFor } from '../style';

const usage = `Usage: skillyard validate <path...> [--json] [--keys <dir>] [--strict]

Read every skill under each path (a skill folder, a .skill.md/.skill.js/.skill.ts
file, a malv tools.json app, a Rye .ai/tools tree, a folder of many skills, or a
.zip/.tar.gz archive) and check it against the formats' rules.

Options:
  --json         print {"ok", "skills": [SkillManifest...], "diagnostics"?} as JSON
  --keys <dir>   trust the Ed25519 public keys in <dir> for Rye signatures
                 (repeatable; ~/.skillyard/keys is always read)
  --strict       treat warnings as errors
  -q, --quiet    print only problems and the summary

Exit status: 0 valid, 1 invalid (any error), 2 usage error.
`;

export const validate: Command = {
  name: 'validate',
  summary: 'check skills in any supported format and print their manifests',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, keys: { type: 'string', multiple: true }, strict: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } },
    });
    if (positionals.length === 0) throw new UsageError('give at least one path to validate');
    const { keys, problems } = loadTrustedKeys([defaultKeysDir(), ...(values.keys ?? [])]);
    for (const p of problems) process.stderr.write(`warning: cannot read key ${p}\n`);
    const skills: SkillManifest[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const p of positionals) {
      const res = await readSkillsFromPath(p, { trustedKeys: keys, limits: limitsFromEnv(process.env) });
      skills.push(...res.skills);
      diagnostics.push(...res.diagnostics);
    }
    const all = [...diagnostics, ...skills.flatMap((s) => s.diagnostics)];
    const failing = (d: Diagnostic) => d.severity === 'error' || (values.strict && d.severity === 'warning');
    const ok = !all.some(failing) && skills.length > 0;
    if (values.json) {
      const out: Record<string, unknown> = { ok, skills };
      if (diagnostics.length) out.diagnostics = diagnostics;
      process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    } else printHuman(skills, diagnostics, ok, !!values.quiet);
    return ok ? 0 : 1;
  },
};

function location(d: Diagnostic): string {
  if (!d.file) return '';
  return `${d.file}${d.line ? `:${d.line}` : ''}${d.path && !d.line ? ` ${d.path}` : ''}: `;
}

function printHuman(skills: SkillManifest[], top: Diagnostic[], ok: boolean, quiet: boolean): void {
  const s = styleFor(process.stdout);
  const line = (d: Diagnostic) => {
    const sev = d.severity === 'error' ? s.red('error') : s.yellow('warning');
    return `  ${location(d)}${sev} ${d.message} ${s.dim(`[${d.code}]`)}`;
  };
  const out: string[] = [];
  for (const d of top) out.push(line(d));
  for (const sk of skills) {
    const errs = sk.diagnostics.filter((d) => d.severity === 'error').length;
    const warns = sk.diagnostics.length - errs;
    if (quiet && sk.diagnostics.length === 0) continue;
    const mark = errs ? s.red('✗') : warns ? s.yellow('!') : s.green('✓');
    const tools = sk.tools.length ? ` — ${sk.tools.length} tool${sk.tools.length > 1 ? 's' : ''}: ${sk.tools.map((t) => t.name).join(', ')}` : sk.instructions ? ' — instructions' : '';
    const sig = sk.signature ? ` ${sk.signature.verified === true ? s.green('signed✓') : sk.signature.verified === false ? s.red('signature✗') : s.dim(`signed (${sk.signature.reason ?? 'unverified'})`)}` : '';
    out.push(`${mark} ${s.bold(sk.name)} ${s.dim(`(${sk.format}${sk.version ? ` ${sk.version}` : ''})`)}${tools}${sig}`);
    const sorted = [...sk.diagnostics].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
    for (const d of sorted) out.push(line(d));
  }
  const errors = [...top, ...skills.flatMap((k) => k.diagnostics)].filter((d) => d.severity === 'error').length;
  const warnings = [...top, ...skills.flatMap((k) => k.diagnostics)].length - errors;
  out.push('');
  out.push(`${ok ? s.green('valid') : s.red('invalid')}: ${skills.length} skill${skills.length === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  process.stdout.write(out.join('\n') + '\n');
}

