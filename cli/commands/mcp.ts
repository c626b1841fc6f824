// `skillyard mcp --skill <path>...`: serves local skills of any format over MCP (stdio),
// so any MCP client (Claude Code, Claude Desktop, Cursor, VS Code) can use a folder of
// skills without the server. Tools run through the full kernel pipeline in the sandbox.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { isolatedVmProblem } from '../isolated-vm-check';
import { parsePackageRef } from '../registry-client';

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
  --hosted             run the tools of @scope/name skills on the registry (its hosted
                       MCP endpoint, with SKILLYARD_TOKEN or the login's token) instead
                       of here; the default when isolated-vm cannot load on this machine

Add it to an MCP client, for example Claude Code (from anywhere: the registry serves
this CLI at /cli/skillyard.tgz):
  claude mcp add text-stats -- npx -y https://skillyard.example/cli/skillyard.tgz mcp --registry https://skillyard.example --skill @skillyard/text-stats
  claude mcp add my-skills -- npx -y https://skillyard.example/cli/skillyard.tgz mcp --skill ./skills/text-stats

Messages about the server go to stderr; stdout carries only the protocol.
Exit status: 0 when the client closes the session, 1 when tools cannot run (no
isolated-vm for a local skill, registry unreachable), 2 usage or unreadable skill.
`;

export const mcp: Command = {
  name: 'mcp',
  summary: 'serve local or registry skills to any MCP client over stdio',
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
        hosted: { type: 'boolean' },
      },
    });
    if (!values.skill?.length) throw new UsageError('--skill <path> is required');
    const env: Record<string, string> = {};
    for (const kv of values.env ?? []) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UsageError('--env takes NAME=VALUE');
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    const refs = values.skill.map((v) => (v.startsWith('@') && !existsSync(v) ? parsePackageRef(v) : null));
    const allRegistry = refs.every(Boolean);
    if (values.hosted && !allRegistry) throw new UsageError('--hosted serves registry skills only (--skill @scope/name)');
    const problem = values.hosted ? null : await isolatedVmProblem();
    if (values.hosted || (problem && allRegistry)) {
      if (problem) process.stderr.write('skillyard mcp: isolated-vm is not available here, so the tools run on the registry\n');
      const { serveHostedOverStdio } = await import('../mcp-hosted');
      try {
        await serveHostedOverStdio(
          refs.filter((r) => r !== null),
          { registry: values.registry },
        );
      } catch (e) {
        process.stderr.write(`skillyard mcp: ${(e as Error).message}\n`);
        return 1;
      }
      return 0;
    }
    if (problem) {
      process.stderr.write(`skillyard mcp: ${problem}\n`);
      return 1;
    }
    const { serveLocalOverStdio } = await import('../mcp-local');
    return serveLocalOverStdio({
      skill: values.skill,
      registry: values.registry,
      scope: values.scope,
      allowSubprocess: values['allow-subprocess'] ?? process.env.SKILLYARD_ALLOW_SUBPROCESS === '1',
      env,
    });
  },
};
