// `skillyard whoami`: which account and token the CLI uses, at which registry.
import { parseArgs } from 'node:util';
import { type Command } from '../command';
import { registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard whoami [--registry URL] [--json]

Prints the user the API token belongs to (SKILLYARD_TOKEN, else the token \`skillyard login\`
saved), the token's name, scopes and expiry, and the registry. Exit 1 when not signed in.
`;

type Me = { handle: string | null; name: string | null; token: { name: string; prefix: string; scopes: string[]; expiresAt: string | null } };

export const whoami: Command = {
  name: 'whoami',
  summary: 'show who the CLI is signed in as',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { registry: { type: 'string' }, json: { type: 'boolean' } } });
    const client = registryClient({ registry: values.registry });
    if (!client.token) {
      process.stderr.write('skillyard whoami: not signed in: run `skillyard login` or set SKILLYARD_TOKEN\n');
      return 1;
    }
    try {
      const me = await client.json<Me>('/api/auth/whoami');
      if (values.json) {
        process.stdout.write(JSON.stringify({ ...me, registry: client.base, fromEnvironment: !!process.env.SKILLYARD_TOKEN }, null, 2) + '\n');
        return 0;
      }
      const who = me.handle ? `@${me.handle}` : (me.name ?? 'a user without a username');
      process.stdout.write(
        `${who} at ${client.base}\ntoken "${me.token.name}" (${me.token.prefix}_…${process.env.SKILLYARD_TOKEN ? ', from SKILLYARD_TOKEN' : ''}), scopes ${me.token.scopes.join(', ')}, ${me.token.expiresAt ? `expires ${me.token.expiresAt.slice(0, 10)}` : 'never expires'}\n`,
      );
      return 0;
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard whoami: ${e.message} [${e.code}]\n`);
      return 1;
    }
  },
};
