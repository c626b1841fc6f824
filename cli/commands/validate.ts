import { parseArgs } from 'node:util';
import { LIMIT_ENV, limitsFromEnv, readSkillsFromPath, type Diagnostic, type SkillManifest } from '../../lib/skills';
import { UsageError, type Command } from '../command';
import { defaultKeysDir, loadTrustedKeys } from '../keys';
import { styleFor, type Style } from '../style';

const usage = `Usage: skillyard validate <path...> [--json] [--keys <dir>] [--strict]

Read every skill under each path (a skill folder, a .skill.md/.skill.js/.skill.ts
file, a malv tools.json app, an MCP tool list, a Rye .ai/tools tree, a folder of many
skills, or a .zip/.tar.gz archive) and check it against the formats' rules. Skills are
printed as they are read, so a tree of 100,000 files streams in little memory. Beside
conformance, each skill says which agents load it ("loads in: Claude Code ✓ · Codex ✗")
and why not; that verdict never changes the exit status. Symbolic links inside the path
are read as their target (with a note); notes never fail a run.

Options:
  --json         print {"skills": [SkillManifest...], "diagnostics"?, "ok"} as JSON
                 (each manifest's "source" is the folder or file it came from, and
                 "agents" says whether Claude Code, Codex, OpenClaw, Cursor and
                 GitHub Copilot load it, by their documented loader rules)
  --keys <dir>   trust the Ed25519 public keys in <dir> for Rye signatures
                 (repeatable; ~/.skillyard/keys is always read)
  --strict       treat warnings as errors
  -q, --quiet    print only problems and the summary

Limits (defaults in docs/formats.md) are set by environment variables, e.g.
  ${LIMIT_ENV.maxPackageBytes}=104857600  ${LIMIT_ENV.maxPackageFiles}=5000  ${LIMIT_ENV.maxFileBytes}=2097152

Exit status: 0 valid, 1 invalid (any error), 2 usage error.
`;

type Sink = { skill(s: SkillManifest): void; end(top: Diagnostic[], ok: boolean, counts: Counts): void };
type Counts = { skills: number; errors: number; warnings: number; notes: number };

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
    const failing = (d: Diagnostic) => d.severity === 'error' || (values.strict && d.severity === 'warning');
    const counts: Counts = { skills: 0, errors: 0, warnings: 0, notes: 0 };
    let failed = false;
    const count = (list: Diagnostic[]) => {
      for (const d of list) {
        if (d.severity === 'error') counts.errors++;
        else if (d.severity === 'warning') counts.warnings++;
        else counts.notes++;
        if (failing(d)) failed = true;
      }
    };
    const out = values.json ? jsonSink() : humanSink(styleFor(process.stdout), !!values.quiet, !!values.strict);
    const top: Diagnostic[] = [];
    const limits = limitsFromEnv(process.env);
    for (const p of positionals) {
      // Each manifest is printed and dropped as soon as it is read.
      const res = await readSkillsFromPath(p, {
        trustedKeys: keys,
        limits,
        onSkill: (s) => {
          counts.skills++;
          count(s.diagnostics);
          out.skill(s);
        },
      });
      count(res.diagnostics);
      top.push(...res.diagnostics);
    }
    const ok = !failed && counts.skills > 0;
    out.end(top, ok, counts);
    return ok ? 0 : 1;
  },
};

/** {"skills": [...], "diagnostics"?: [...], "ok": bool}, written a manifest at a time. */
function jsonSink(): Sink {
  let first = true;
  const w = (s: string) => process.stdout.write(s);
  w('{\n  "skills": [');
  return {
    skill(s) {
      w(`${first ? '\n' : ',\n'}    ${JSON.stringify(s, null, 2).replace(/\n/g, '\n    ')}`);
      first = false;
    },
    end(top, ok) {
      w(first ? ']' : '\n  ]');
      if (top.length) w(`,\n  "diagnostics": ${JSON.stringify(top, null, 2).replace(/\n/g, '\n  ')}`);
      w(`,\n  "ok": ${ok}\n}\n`);
    },
  };
}

function location(d: Diagnostic): string {
  if (!d.file) return '';
  return `${d.file}${d.line ? `:${d.line}` : ''}${d.path && !d.line ? ` ${d.path}` : ''}: `;
}

function humanSink(s: Style, quiet: boolean, strict: boolean): Sink {
  const line = (d: Diagnostic) => {
    const sev = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.dim('note');
    return `  ${location(d)}${sev} ${d.message} ${s.dim(`[${d.code}]`)}`;
  };
  return {
    skill(sk) {
      const errs = sk.diagnostics.filter((d) => d.severity === 'error').length;
      const warns = sk.diagnostics.filter((d) => d.severity === 'warning').length;
      if (quiet && errs + warns === 0) return;
      // under --strict a warning fails the skill as an error does
      const mark = errs || (strict && warns) ? s.red('✗') : warns ? s.yellow('!') : s.green('✓');
      const tools = sk.tools.length
        ? ` — ${sk.tools.length} tool${sk.tools.length > 1 ? 's' : ''}: ${sk.tools.map((t) => t.name).join(', ')}`
        : sk.instructions
          ? ' — instructions'
          : '';
      const sig = sk.signature
        ? ` ${sk.signature.verified === true ? s.green('signed✓') : sk.signature.verified === false ? s.red('signature✗') : s.dim(`signed (${sk.signature.reason ?? 'unverified'})`)}`
        : '';
      const out = [`${mark} ${s.bold(sk.name)} ${s.dim(`(${sk.format}${sk.version ? ` ${sk.version}` : ''})`)}${tools}${sig}`];
      const sorted = [...sk.diagnostics].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
      for (const d of sorted) if (!quiet || d.severity !== 'note') out.push(line(d));
      // "Will it load?" is apart from conformance: an agent may load what the spec refuses
      if (sk.agents?.length && (!quiet || sk.agents.some((a) => !a.loads))) {
        out.push(`  ${s.dim('loads in:')} ${sk.agents.map((a) => `${a.label} ${a.loads ? s.green('✓') : s.red('✗')}`).join(s.dim(' · '))}`);
        for (const a of sk.agents) {
          for (const r of a.reasons)
            if (!a.loads || !quiet) out.push(`    ${a.label}: ${r.effect === 'blocks' ? 'not loaded' : 'loaded, but'}: ${r.message} ${s.dim(`[${r.rule}]`)}`);
        }
      }
      process.stdout.write(out.join('\n') + '\n');
    },
    end(top, ok, c) {
      const out = top.filter((d) => !quiet || d.severity !== 'note').map(line);
      out.push('');
      out.push(
        `${ok ? s.green('valid') : s.red('invalid')}: ${c.skills} skill${c.skills === 1 ? '' : 's'}, ${c.errors} error${c.errors === 1 ? '' : 's'}, ${c.warnings} warning${c.warnings === 1 ? '' : 's'}${c.notes ? `, ${c.notes} note${c.notes === 1 ? '' : 's'}` : ''}`,
      );
      process.stdout.write(out.join('\n') + '\n');
    },
  };
}
