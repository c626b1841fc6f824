// Validation throughput, memory and CLI start: generate a tree of N skills (a mix of all
// five formats) in a temp dir, then
//   1. read and validate it in this process with readSkillsFromPath (manifests
//      streamed through onSkill, as the CLI does): time, CPU, peak RSS;
//   2. run the compiled CLI `skillyard validate --json` on it as a child process
//      (output to a file): time and the child's peak RSS;
//   3. time the CLI's start: `skillyard --help` and `validate` of one small skill,
//      median of several runs, beside bare `node -e 0` on the same machine.
// Prints JSON.
//   npx tsx bench/validate.ts [--skills 10000 | --files 100000] [--keep] [--no-cli]
// Every schema is distinct (property names carry the skill index), so Ajv's compile
// cache does not hide the cost of compiling them. Agent verdicts (loads in Claude Code,
// Codex...) are computed for every skill, as `validate` always does; one skill in 100 is
// also reached through a symbolic link (followed, with a note).

import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readSkillsFromPath } from '../lib/skills';

const { values } = parseArgs({ options: { skills: { type: 'string' }, files: { type: 'string' }, keep: { type: 'boolean' }, 'no-cli': { type: 'boolean' } } });
// about 2.05 files per skill in the mix below
const N = values.skills ? Number(values.skills) : values.files ? Math.ceil(Number(values.files) / 2.05) : 10_000;
const root = mkdtempSync(path.join(os.tmpdir(), 'skillyard-bench-'));

let files = 0;
const write = (rel: string, text: string) => {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  files++;
};

const schema = (i: number) => ({
  type: 'object',
  properties: {
    [`text_${i}`]: { type: 'string', description: 'Input text', maxLength: 1000 + i },
    [`mode_${i % 97}`]: { type: 'string', enum: ['a', 'b', `c${i}`] },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  },
  required: [`text_${i}`],
});

const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const name = `skill-${i}`;
  switch (i % 20) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5: // agent-skill, 30%
      write(
        `${name}/SKILL.md`,
        `---\nname: ${name}\ndescription: Benchmark skill ${i} that counts words.\nlicense: MIT\nmetadata:\n  version: 1.0.${i}\n  tags: [bench, Text Tools]\n---\n\n# Skill ${i}\n\nUse the tool to count words in a text.\n`,
      );
      write(
        `${name}/tools.json`,
        JSON.stringify(
          [
            {
              name: `count_words_${i}`,
              description: 'Count words',
              script: 'scripts/count.js',
              parameters: { text: { type: 'string', description: 'Text' }, [`max_${i}`]: { type: 'integer', description: 'Max', optional: true } },
            },
          ],
          null,
          2,
        ),
      );
      write(
        `${name}/scripts/count.js`,
        `export default async function handler(args) {\n  return { count: String(args.text).split(/\\s+/).filter(Boolean).length, id: ${i} };\n}\n`,
      );
      break;
    case 6:
    case 7:
    case 8:
    case 9: // skill-md, 20%
      write(
        `${name}/${name}.skill.md`,
        `---\nname: ${name}\ndescription: Benchmark single-file skill ${i}.\nmetadata:\n  version: 1.0.0\n  params: ${JSON.stringify(schema(i))}\n  delegate: "inline://code,export default async (ctx, args) => ({ ok: ${i} })"\n---\nAnswer briefly.\n`,
      );
      break;
    case 10:
    case 11:
    case 12:
    case 13: // code-skill, 20%
      write(
        `${name}/${name}.skill.ts`,
        `export const frontmatter = {\n  name: '${name}',\n  description: 'Benchmark code skill ${i}',\n  metadata: { version: '1.0.0', params: ${JSON.stringify(schema(i))} },\n};\nexport default async function (ctx: unknown, args: { text: string }) {\n  return { length: args.text.length + ${i} };\n}\n`,
      );
      break;
    case 14:
    case 15:
    case 16: // malv, 15%
      write(`${name}/package.json`, JSON.stringify({ name: `@bench/${name}`, version: '1.0.0', description: `Benchmark malv app ${i}` }));
      write(
        `${name}/tools.json`,
        JSON.stringify(
          [
            {
              name: `tool_${i}`,
              description: 'Does a thing',
              capabilities: ['storage'],
              input_tokens: { '@oauth/github': { required: ['account'] } },
              input_schema: schema(i),
              output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
            },
          ],
          null,
          2,
        ),
      );
      write(`${name}/src/tools/tool_${i}.ts`, `export default async function tool_${i}(input: unknown, capabilities: unknown) {\n  return { ok: true };\n}\n`);
      break;
    default: // rye, 15%
      write(
        `${name}/.ai/tools/bench/t_${i}.py`,
        `"""Bench tool ${i}."""\n\n__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rye/core/runtimes/python/function"\n__category__ = "bench"\n__tool_description__ = "Bench tool ${i}"\n\nCONFIG_SCHEMA = ${JSON.stringify(schema(i), null, 4).replace(/true/g, 'True')}\n\n\ndef execute(params: dict, project_path: str) -> dict:\n    return {"success": True, "output": ${i}}\n`,
      );
      write(
        `${name}/.ai/tools/bench/y-${i}.yaml`,
        `tool_id: y-${i}\ntool_type: yaml\nversion: "1.0.0"\nexecutor_id: rye/core/runtimes/python/script\ncategory: bench\ndescription: YAML bench tool ${i}\nparameters:\n  - name: text_${i}\n    type: string\n    required: true\n    description: Text\n  - name: n\n    type: integer\n    default: 3\n    description: Count\n`,
      );
  }
}
// a links/ folder of symbolic links to agent-skill folders: read as their targets
mkdirSync(path.join(root, 'links'));
for (let i = 0; i < N; i += 100) {
  symlinkSync(`../skill-${i}`, path.join(root, 'links', `skill-${i}`));
  files++;
}
const generateSeconds = (performance.now() - t0) / 1000;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const t1 = performance.now();
const cpu0 = process.cpuUsage();
const limits = { maxTreeFiles: Math.max(200_000, files * 2) };
let skills = 0;
let tools = 0;
const byFormat: Record<string, number> = {};
const firstProblems: unknown[] = [];
let skillDiagnostics = 0;
let notes = 0;
const agentLoads: Record<string, number> = {};
let verdicts = 0;
const result = await readSkillsFromPath(root, {
  limits,
  onSkill: (s) => {
    skills++;
    tools += s.tools.length;
    byFormat[s.format] = (byFormat[s.format] ?? 0) + 1;
    const problems = s.diagnostics.filter((d) => d.severity !== 'note');
    notes += s.diagnostics.length - problems.length;
    skillDiagnostics += problems.length;
    if (firstProblems.length < 5) firstProblems.push(...problems.slice(0, 5 - firstProblems.length));
    for (const a of s.agents ?? []) {
      verdicts++;
      if (a.loads) agentLoads[a.agent] = (agentLoads[a.agent] ?? 0) + 1;
    }
  },
});
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - t1) / 1000;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const diagnostics = result.diagnostics.length + skillDiagnostics;

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'skillyard.mjs');
// A preload that reports the process's peak RSS (kB) on exit: the CLI itself is unchanged.
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>process.stderr.write('SKILLYARD_MAXRSS_KB='+process.resourceUsage().maxRSS+'\\n'))`;

function cliRun(args: string[]): { ms: number; peakRssMb: number; status: number | null; outBytes: number } {
  const file = path.join(os.tmpdir(), `skillyard-bench-out-${process.pid}.json`);
  const fd = openSync(file, 'w');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', RSS_HOOK, BIN, ...args], {
    stdio: ['ignore', fd, 'pipe'],
    env: { ...process.env, SKILLYARD_MAX_TREE_FILES: String(limits.maxTreeFiles) },
  });
  const ms = performance.now() - t;
  closeSync(fd);
  const outBytes = statSync(file).size;
  rmSync(file, { force: true });
  const kb = Number(/SKILLYARD_MAXRSS_KB=(\d+)/.exec(r.stderr.toString())?.[1] ?? 0);
  return { ms, peakRssMb: Math.round(kb / 1024), status: r.status, outBytes };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]);
}
function timeMs(cmd: string, args: string[], runs = 9): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(cmd, args, { stdio: 'ignore' });
    xs.push(performance.now() - t);
  }
  return median(xs);
}

let cli: Record<string, unknown> | null = null;
if (!values['no-cli']) {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli/build.ts')], { stdio: 'ignore' }); // fresh build, outside the measurement
  const full = cliRun(['validate', root, '--json']);
  const small = path.join(ROOT, 'skills', 'text-stats');
  const nodeBaselineMs = timeMs(process.execPath, ['-e', '0']);
  const helpMs = timeMs(process.execPath, [BIN, '--help']);
  const validateOneMs = timeMs(process.execPath, [BIN, 'validate', small, '--json'], 5);
  cli = {
    validateJson: {
      seconds: Number((full.ms / 1000).toFixed(3)),
      peakRssMb: full.peakRssMb,
      exitCode: full.status,
      outputMb: Number((full.outBytes / 1024 / 1024).toFixed(1)),
      targetPeakRssMb: 500,
    },
    start: { helpMs, validateOneSkillMs: validateOneMs, nodeBaselineMs, helpOverNodeMs: helpMs - nodeBaselineMs, targetHelpMs: 150 },
  };
}

console.log(
  JSON.stringify(
    {
      files,
      skills,
      tools,
      byFormat,
      diagnostics,
      notes,
      agentVerdicts: { computed: verdicts, loads: agentLoads },
      inProcess: {
        seconds: Number(seconds.toFixed(3)),
        cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(3)),
        filesPerSecond: Math.round(files / seconds),
        skillsPerSecond: Math.round(skills / seconds),
        peakRssMb: Math.round(peakRss / 1024 / 1024),
      },
      cli,
      generateSeconds: Number(generateSeconds.toFixed(3)),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
    },
    null,
    2,
  ),
);
if (diagnostics > 0) {
  console.error('unexpected diagnostics (the generated skills should be valid):', JSON.stringify([...result.diagnostics, ...firstProblems].slice(0, 5), null, 2));
  process.exitCode = 1;
}
if (!values.keep) rmSync(root, { recursive: true, force: true });
else console.error(`tree kept at ${root}`);
