// `skillyard search <words>`: the registry's search from the terminal.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { styleFor } from '../style';
import { registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard search <words...> [--format f] [--tag t] [--scope @s] [--sort s] [--page n]

Search the registry: names, tool names, descriptions and instructions; misspelled
words are matched too.

Options:
  --format <f>       agent-skill, skill-md, code-skill, malv or rye
  --tag <t>          only skills with this tag
  --scope <@s>       only skills in this scope
  --gated            only skills with token-gated tools
  --signed           only signed skills
  --sort <s>         relevance (default), downloads, recent or stars
  --page <n>         page of 20
  --registry <url>   the registry
  --json             print the API's JSON
`;

type Hit = { scope: string; name: string; version: string | null; description: string; downloads: number; format: string; toolCount: number };

export const search: Command = {
  name: 'search',
  summary: 'search the registry',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        tag: { type: 'string' },
        scope: { type: 'string' },
        gated: { type: 'boolean' },
        signed: { type: 'boolean' },
        sort: { type: 'string' },
        page: { type: 'string' },
        registry: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    const q = new URLSearchParams();
    if (positionals.length) q.set('q', positionals.join(' '));
    for (const k of ['format', 'tag', 'scope', 'sort', 'page'] as const) if (values[k]) q.set(k, String(values[k]));
    if (values.gated) q.set('gated', 'true');
    if (values.signed) q.set('signed', 'true');
    if ([...q.keys()].length === 0) throw new UsageError('give some words to search for (or a filter)');
    const client = registryClient({ registry: values.registry });
    let res: { hits: Hit[]; total: number; totalIsCapped?: boolean; page: number; perPage: number; corrections: Record<string, string[]> };
    try {
      res = await client.json(`/api/v1/skills?${q}`);
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard search: ${e.message} [${e.code}]\n`);
      return 1;
    }
    if (values.json) {
      process.stdout.write(JSON.stringify(res, null, 2) + '\n');
      return 0;
    }
    const s = styleFor(process.stdout);
    const fixes = Object.entries(res.corrections);
    if (fixes.length) process.stdout.write(s.dim(`also searched: ${fixes.map(([w, alts]) => `${w} → ${alts.join(', ')}`).join('; ')}\n`));
    for (const h of res.hits) {
      process.stdout.write(
        `${s.bold(`@${h.scope}/${h.name}`)} ${s.dim(`${h.version ?? ''} · ${h.format} · ${h.toolCount} tools · ${h.downloads} downloads`)}\n  ${h.description.slice(0, 120)}\n`,
      );
    }
    const from = res.total === 0 ? 0 : (res.page - 1) * res.perPage + 1;
    process.stdout.write(s.dim(`${res.total === 0 ? 'no skills found' : `${from}-${from + res.hits.length - 1} of ${res.total}${res.totalIsCapped ? '+' : ''}`}\n`));
    return 0;
  },
};
