// `skillyard yank @scope/name@1.2.3 [--reason "..."] [--undo]`: takes an exact version out
// of ranges and listings (it stays downloadable by its number, so locks keep working).
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { parsePackageRef, registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard yank @scope/name@<version> [--reason <text>] [--undo] [--registry URL]

Yank one exact version: ranges, \`latest\` and listings skip it; \`skillyard install\` of
a lock that names it still works, with a warning. --undo takes the yank back. Needs a
token with the publish scope (\`skillyard login\`, or SKILLYARD_TOKEN).
Exit status: 0 done, 1 refused by the registry, 2 usage error.
`;

export const yank: Command = {
  name: 'yank',
  summary: 'yank (or --undo) one published version',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { reason: { type: 'string' }, undo: { type: 'boolean' }, registry: { type: 'string' } },
    });
    const ref = positionals.length === 1 ? parsePackageRef(positionals[0]) : null;
    if (!ref?.spec) throw new UsageError('give one exact version, like @scope/name@1.2.3');
    const client = registryClient({ registry: values.registry });
    try {
      await client.json(`/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(ref.spec)}/yank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: values.reason, undo: values.undo ?? false }),
      });
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard yank: ${e.message} [${e.code}]\n`);
      return 1;
    }
    process.stdout.write(`${values.undo ? 'unyanked' : 'yanked'} @${ref.scope}/${ref.name}@${ref.spec}\n`);
    return 0;
  },
};
