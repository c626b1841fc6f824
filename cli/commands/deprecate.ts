// `skillyard deprecate @scope/name@<range> "<message>"`: marks the versions a range matches;
// `add`, `install` and `update` print the message. An empty message takes it back.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { parsePackageRef, registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard deprecate @scope/name[@range] "<message>" [--registry URL]

Deprecate every version the range matches (default: all), with a message that
\`add\`, \`install\` and \`update\` print. An empty message ("") takes the deprecation back.
Needs a token with the publish scope. Exit status: 0 done, 1 refused, 2 usage error.
`;

export const deprecate: Command = {
  name: 'deprecate',
  summary: 'deprecate versions of a published skill (with a message)',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { registry: { type: 'string' } } });
    if (positionals.length !== 2) throw new UsageError('give a skill and a message, like @scope/name@"<1.2" "use 1.2 or later"');
    const ref = parsePackageRef(positionals[0]);
    if (!ref) throw new UsageError(`"${positionals[0]}" is not a skill reference like @scope/name[@range]`);
    const client = registryClient({ registry: values.registry });
    let out: { versions?: string[] };
    try {
      out = await client.json(`/api/v1/skills/${ref.scope}/${ref.name}/deprecate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ range: ref.spec ?? '*', message: positionals[1] }),
      });
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard deprecate: ${e.message} [${e.code}]\n`);
      return 1;
    }
    const which = Array.isArray(out?.versions) ? ` (${out.versions.join(', ')})` : '';
    process.stdout.write(`${positionals[1] ? 'deprecated' : 'undeprecated'} @${ref.scope}/${ref.name}@${ref.spec ?? '*'}${which}\n`);
    return 0;
  },
};
