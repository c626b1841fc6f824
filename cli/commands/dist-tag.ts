// `skillyard dist-tag add|rm|ls`: the tags (`latest`, `next`, `beta`...) that name versions.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { parsePackageRef, registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard dist-tag add @scope/name@<version> <tag>
       skillyard dist-tag rm @scope/name <tag>
       skillyard dist-tag ls @scope/name

Point a tag at a version, remove a tag (not \`latest\`), or list the tags. \`add\` and
\`rm\` need a token with the publish scope. Options: --registry URL.
Exit status: 0 done, 1 refused, 2 usage error.
`;

export const distTag: Command = {
  name: 'dist-tag',
  summary: 'add, remove or list the tags of a skill (latest, next...)',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { registry: { type: 'string' } } });
    const [verb, skill, tag] = positionals;
    const ref = skill ? parsePackageRef(skill) : null;
    if (!ref) throw new UsageError('give a verb (add, rm, ls) and a skill, like @scope/name');
    const client = registryClient({ registry: values.registry });
    const base = `/api/v1/skills/${ref.scope}/${ref.name}/dist-tags`;
    try {
      if (verb === 'ls' && positionals.length === 2) {
        const tags = await client.json<Record<string, string>>(base);
        for (const [t, v] of Object.entries(tags)) process.stdout.write(`${t}: ${v}\n`);
        return 0;
      }
      if (verb === 'add' && positionals.length === 3 && ref.spec) {
        await client.json(`${base}/${encodeURIComponent(tag)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ version: ref.spec }) });
        process.stdout.write(`+${tag}: @${ref.scope}/${ref.name}@${ref.spec}\n`);
        return 0;
      }
      if (verb === 'rm' && positionals.length === 3 && !ref.spec) {
        await client.json(`${base}/${encodeURIComponent(tag)}`, { method: 'DELETE' });
        process.stdout.write(`-${tag}: @${ref.scope}/${ref.name}\n`);
        return 0;
      }
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard dist-tag: ${e.message} [${e.code}]\n`);
      return 1;
    }
    throw new UsageError('dist-tag add @scope/name@<version> <tag> | rm @scope/name <tag> | ls @scope/name');
  },
};
