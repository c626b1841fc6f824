// `skillyard mcp --skill <path>...`: serves local skills of any format over MCP (stdio),
// so any MCP client (Claude Code, Claude Desktop, Cursor, VS Code) can use a folder of
// skills without the server. Tools run through the full kernel pipeline in the sandbox.
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxPool } from '../../lib/sandbox/pool';
import {
  createMemoryEnvironment,
  createMemoryEventBus,
  createHmacTokenSigner,
  allowRangesFromEnv,
  createMemoryStorage,
  createMemoryVault,
  createToolManager,
} from '../../lib/runtime';
import { localToolHost, serveMcpOverStdio } from '../../lib/mcp';
import { UsageError, type Command } from '../command';
import { fetchPackage } from '../fetch-package';
import { parsePackageRef } from '../registry-client';
import { loadSkills } from './run';

const usage = `Usage: skillyard mcp --skill <path|@scope/name> [--skill ...] [options]

Serve the tools of skills over the Model Context Protocol on stdin/stdout, run on
this machine. Every format that \`skillyard validate\` reads works; each tool is listed
with its input and output schemas, runs through the full pipeline (allowed-tools,
token gate, params, sandbox, returns), and each skill's instructions are an MCP prompt.

Options:
  --skill <path>       a skill folder, skill file or tree of skills (repeatable)
  --skill @scope/name  a skill from the registry (@scope/name@1.2.0 pins a version):
                       downloaded, its integrity and signature checked, then run here
  --registry <url>     the registry for @scope/name (default SKILLYARD_REGISTRY, the
                       login's registry, or http://127.0.0.1:3000)
  --allow-subprocess   run Python/bash handlers (also SKILLYARD_ALLOW_SUBPROCESS=1)
  --scope <scope>      the registry scope the skills run as (for minted tokens;
                       default: the scope of the first @scope/name)
  --env NAME=VALUE     a secret for the environment capability (repeatable)

Add it to an MCP client, for example Claude Code:
  claude mcp add my-skills -- npx skillyard mcp --skill ./skills/text-stats
  claude mcp add text-stats -- npx skillyard mcp --registry https://skillyard.example --skill @skillyard/text-stats

Messages about the server go to stderr; stdout carries only the protocol.
Exit status: 0 when the client closes the session, 2 usage or unreadable skill.
`;

export const mcp: Command = {
  name: 'mcp',
  summary: 'serve local skills to any MCP client over stdio',
  usage,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        skill: { type: 'string', multiple: true },
        'allow-subprocess': { type: 'boolean' },
        scope: { type: 'string' },
        registry: { type: 'string' },
        env: { type: 'string', multiple: true },
      },
    });
    if (!values.skill?.length) throw new UsageError('--skill <path> is required');
    const env: Record<string, string> = {};
    for (const kv of values.env ?? []) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UsageError('--env takes NAME=VALUE');
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    let skills;
    let downloads: string | null = null;
    try {
      const paths: string[] = [];
      let refScope: string | null = null;
      for (const value of values.skill) {
        const ref = value.startsWith('@') && !existsSync(value) ? parsePackageRef(value) : null;
        if (!ref) {
          paths.push(value);
          continue;
        }
        downloads ??= await fsp.mkdtemp(path.join(os.tmpdir(), 'skillyard-mcp-'));
        const pkg = await fetchPackage(ref, { registry: values.registry, warn: (line) => process.stderr.write(line + '\n') });
        if (pkg.deprecated) process.stderr.write(`skillyard mcp: ${pkg.label} is deprecated: ${pkg.deprecated}\n`);
        const target = path.join(downloads, ref.scope, ref.name);
        for (const f of pkg.files) {
          const dest = path.resolve(target, f.path);
          if (!dest.startsWith(target + path.sep)) throw new Error(`${pkg.label}: ${f.path} would be written outside its folder`);
          await fsp.mkdir(path.dirname(dest), { recursive: true });
          await fsp.writeFile(dest, f.content);
        }
        refScope ??= ref.scope;
        paths.push(target);
        process.stderr.write(`skillyard mcp: fetched ${pkg.label} (${pkg.integrity})\n`);
      }
      skills = await loadSkills(paths, values.scope?.replace(/^@/, '') ?? refScope);
    } catch (e) {
      process.stderr.write(`skillyard mcp: cannot read skill: ${(e as Error).message}\n`);
      if (downloads) await fsp.rm(downloads, { recursive: true, force: true });
      return 2;
    }
    const inProcess = process.execArgv.includes('--no-node-snapshot');
    const sandbox = createSandboxPool({ inProcess, workers: 1 });
    const manager = createToolManager({
      skills,
      caller: { id: 'local', kind: 'user', tokens: [] },
      sandbox,
      allowSubprocess: values['allow-subprocess'] ?? process.env.SKILLYARD_ALLOW_SUBPROCESS === '1',
      workDir: process.cwd(),
      providers: {
        storage: createMemoryStorage(),
        signer: createHmacTokenSigner(),
        // private and loopback addresses only where SKILLYARD_NET_ALLOW allows them, as on the server
        net: { allowRanges: allowRangesFromEnv() },
        vault: createMemoryVault(),
        environment: createMemoryEnvironment({ local: env }),
        events: createMemoryEventBus(),
      },
    });
    const { closed } = await serveMcpOverStdio(localToolHost(skills, manager));
    process.stderr.write(`skillyard mcp: serving ${skills.map((s) => s.manifest.name).join(', ')} over stdio\n`);
    await closed;
    await sandbox.close();
    if (downloads) await fsp.rm(downloads, { recursive: true, force: true });
    return 0;
  },
};
