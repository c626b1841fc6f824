// `skillyard agent`: runs the agent loop in a terminal against local skills and prints
// the trace, for people or as JSON lines. Same loop as the playground (lib/agent).

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runAgent } from '../../lib/agent/run-agent';
import { createProvider, type ProviderConfig } from '../../lib/agent/providers';
import { parseScript } from '../../lib/agent/providers/scripted';
import type { AgentEvent, AgentTool, AgentToolHost } from '../../lib/agent/types';
import type { LoadedSkill } from '../../lib/runtime/types';
import { createLocalRuntime } from '../local-runtime';
import { readSkillsFromPath } from '../../lib/skills/read-path';
import type { SkillManifest } from '../../lib/skills/types';
import type { Command } from '../command';

export const name = 'agent';
export const summary = 'run the agent loop on local skills and print its trace';
export const usage = `Usage: skillyard agent [--skill <path>]... --provider <openai|anthropic|scripted> [options] "<task>"

Options:
  --skill <path>          a skill file, folder, tree or archive (repeatable)
  --provider <name>       openai | anthropic | scripted
  --model <id>            model id (openai default gpt-4o-mini, anthropic default claude-sonnet-4-5)
  --base-url <url>        OpenAI-compatible or Anthropic endpoint (Ollama: http://localhost:11434/v1)
  --script <file>         scripted provider: JSON array of turns ("code" or {"text","code"})
  --allowed-tools <spec>  constrain the agent (explicit list = constrained mode; none or * = discovery)
  --prompt <text>         extra system instructions
  --max-turns <n>         default 30
  --max-steps <n>         default 30
  --json                  print one JSON event per line, then a {"type":"result"} line
  -h, --help              show this help

API keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY and are never printed.
Exit status: 0 completed, 1 failed or cancelled, 2 usage error.`;

type Out = { out: (s: string) => void; err: (s: string) => void };
const stdio: Out = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

export async function run(argv: string[], io: Out = stdio): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        skill: { type: 'string', multiple: true },
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        script: { type: 'string' },
        'allowed-tools': { type: 'string' },
        prompt: { type: 'string' },
        'max-turns': { type: 'string' },
        'max-steps': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${usage}\n`);
    return 2;
  }
  const o = args.values;
  if (o.help) {
    io.out(`${usage}\n`);
    return 0;
  }
  const task = args.positionals.join(' ').trim();
  const fail = (msg: string) => (io.err(`skillyard agent: ${msg}\n\n${usage}\n`), 2);
  if (!task) return fail('a task is required');
  const int = (v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isInteger(n) && n > 0 ? n : NaN;
  };
  const maxTurns = int(o['max-turns']);
  const maxSteps = int(o['max-steps']);
  if (Number.isNaN(maxTurns) || Number.isNaN(maxSteps)) return fail('--max-turns and --max-steps take a positive integer');

  let config: ProviderConfig;
  try {
    const p = o.provider;
    if (p === 'scripted') {
      if (!o.script) return fail('--provider scripted needs --script <file>');
      config = { provider: 'scripted', turns: parseScript(JSON.parse(await fsp.readFile(o.script, 'utf8'))) };
    } else if (p === 'openai' || p === 'anthropic') {
      const apiKey = (p === 'openai' ? process.env.OPENAI_API_KEY : process.env.ANTHROPIC_API_KEY) || null;
      const baseUrl = o['base-url'] ?? (p === 'openai' ? process.env.OPENAI_BASE_URL : process.env.ANTHROPIC_BASE_URL);
      if (!apiKey && !baseUrl) return fail(`${p === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'} is not set (or give --base-url for a local server)`);
      config = { provider: p, model: o.model ?? (p === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5'), apiKey, baseUrl };
    } else {
      return fail('--provider must be openai, anthropic or scripted');
    }
  } catch (e) {
    return fail(`cannot read the script: ${(e as Error).message}`);
  }

  const skills: LoadedSkill[] = [];
  for (const p of o.skill ?? []) {
    const res = await readSkillsFromPath(p);
    for (const d of res.diagnostics) io.err(`${d.severity}: ${d.code}: ${d.message}${d.file ? ` (${d.file})` : ''}\n`);
    for (const m of res.skills) {
      const errors = m.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length) {
        io.err(`skipping skill ${m.name}: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}\n`);
        continue;
      }
      skills.push(await loadFromDisk(p, m));
    }
    if (res.skills.length === 0) {
      io.err(`skillyard agent: no skill found at ${p}\n`);
      return 1;
    }
  }

  const { manager, sandbox } = createLocalRuntime({
    skills,
    caller: { id: 'cli', kind: 'anonymous', tokens: [] },
    inProcess: true,
    allowedTools: o['allowed-tools'] ?? null,
  });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const tools: AgentToolHost = {
      async listTools() {
        const out: AgentTool[] = [];
        for (const s of manager.listVisibleTools()) {
          const t = skills.find((k) => k.manifest.name === s.skill)?.manifest.tools.find((x) => x.name === s.name);
          if (t) out.push({ ...t, skill: s.skill });
        }
        return out;
      },
      invoke: (ref, a) => manager.invoke(ref, a),
    };
    const printer = o.json ? jsonPrinter(io) : humanPrinter(io);
    const result = await runAgent({
      task,
      prompt: [o.prompt, ...skills.map((s) => s.manifest.instructions)].filter(Boolean).join('\n\n'),
      provider: createProvider(config),
      tools,
      sandbox,
      allowedTools: o['allowed-tools'] ?? null,
      maxTurns,
      maxSteps,
      signal: controller.signal,
      onEvent: printer,
    });
    if (o.json) {
      const { trace: _trace, ...rest } = result;
      io.out(`${JSON.stringify({ type: 'result', ...rest })}\n`);
    }
    return result.status === 'completed' ? 0 : 1;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await sandbox.close();
  }
}

/** A LoadedSkill whose files are read from disk, confined to the package folder. */
async function loadFromDisk(input: string, manifest: SkillManifest): Promise<LoadedSkill> {
  const st = await fsp.stat(input);
  const base = st.isDirectory() ? path.resolve(input) : path.dirname(path.resolve(input));
  const root = await findPackageRoot(base, manifest);
  return {
    manifest,
    scope: null,
    async readFile(rel: string) {
      const full = path.resolve(root, rel);
      if (full !== root && !full.startsWith(root + path.sep)) throw new Error(`${rel} is outside the skill package`);
      return fsp.readFile(full, 'utf8');
    },
  };
}

/** The folder (the input or one below it, by the skill's name) that holds the manifest's files. */
async function findPackageRoot(base: string, manifest: SkillManifest): Promise<string> {
  const probe = manifest.files.slice(0, 5);
  const holds = async (dir: string) => {
    for (const f of probe) if (!(await fsp.stat(path.join(dir, f)).catch(() => null))) return false;
    return true;
  };
  if (probe.length === 0 || (await holds(base))) return base;
  const queue = [base];
  for (let depth = 0; depth < 4 && queue.length; depth++) {
    for (const dir of queue.splice(0)) {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (!e.isDirectory() || e.name === 'node_modules' || e.name.startsWith('.git')) continue;
        const sub = path.join(dir, e.name);
        if (await holds(sub)) return sub;
        queue.push(sub);
      }
    }
  }
  return base;
}

function jsonPrinter(io: Out) {
  return (e: AgentEvent) => io.out(`${JSON.stringify(e)}\n`);
}

const short = (v: unknown, n = 300) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > n ? `${s.slice(0, n)}…` : s;
};

function humanPrinter(io: Out) {
  let midLine = false;
  const line = (s: string) => {
    if (midLine) io.out('\n');
    midLine = false;
    io.out(`${s}\n`);
  };
  return (e: AgentEvent) => {
    const label = e.provider === 'scripted' ? '[scripted] ' : '';
    switch (e.type) {
      case 'agent-start':
        return line(`${label}agent started: provider ${e.provider}${e.model ? ` (${e.model})` : ''}, ${e.mode} mode, tools: ${e.tools.join(', ') || '(none inlined)'}`);
      case 'turn-start':
        return line(`── turn ${e.turnNumber}`);
      case 'message':
        if (e.delta) {
          io.out(e.text);
          midLine = !e.text.endsWith('\n');
          return;
        }
        return line(e.text);
      case 'reasoning':
        return e.delta ? void io.out(e.text) : line(`(thinking) ${e.text}`);
      case 'tool-call':
        if (e.via === 'model') {
          const code = (e.args as { code?: unknown } | null)?.code;
          return line(`→ ${e.tool}${e.denied ? ` DENIED: ${e.denied}` : ''}\n${typeof code === 'string' ? code.replace(/^/gm, '    ') : `    ${short(e.args)}`}`);
        }
        return line(`  ↳ ${e.tool} ${short(e.args, 200)}`);
      case 'tool-result':
        for (const l of e.logs ?? []) line(`    log: ${l}`);
        return line(`${e.via === 'model' ? '←' : '  ←'} ${e.tool}: ${short(e.result)} (${e.durationMs} ms)`);
      case 'tool-error':
        for (const l of e.logs ?? []) line(`    log: ${l}`);
        return line(`${e.via === 'model' ? '✗' : '  ✗'} ${e.tool}: ${e.error.code}: ${e.error.message}`);
      case 'retry':
        return line(`… retry ${e.attempt} in ${e.delayMs} ms: ${e.reason}`);
      case 'error':
        return line(`! model error (attempt ${e.attempt}): ${e.error.code}: ${e.error.message}`);
      case 'agent-error':
        return line(`${label}✗ ${e.error.code}: ${e.error.message} (${e.turns} turns, ${e.steps} steps)`);
      case 'agent-complete':
        return line(`${label}✔ result: ${short(e.result, 2000)} (${e.turns} turns, ${e.steps} steps)`);
      case 'agent-message':
      case 'turn-end':
        if (midLine) line('');
        return;
    }
  };
}

/** Registered in cli/commands/index.ts as `agent` (the Command shape of cli/command.ts). */
export const agent: Command = { name, summary, usage, run };
export default agent;
