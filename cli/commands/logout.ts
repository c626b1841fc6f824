// `skillyard logout`: revokes the saved API token at the registry and forgets it.
import { parseArgs } from 'node:util';
import { type Command } from '../command';
import { updateConfig } from '../credentials';
import { readConfig, registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard logout [--registry URL]

Revokes the API token that \`skillyard login\` saved (at the registry) and removes it from
the config file. A token in SKILLYARD_TOKEN is not touched: unset it yourself.
`;

export const logout: Command = {
  name: 'logout',
  summary: 'revoke and forget the saved API token',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { registry: { type: 'string' } } });
    const saved = readConfig().token;
    if (!saved) {
      process.stderr.write('skillyard logout: no saved token (nothing to do)\n');
      return 0;
    }
    const client = registryClient({ registry: values.registry });
    try {
      await client.request('/api/auth/cli-logout', { method: 'POST', auth: false, headers: { authorization: `Bearer ${saved}` } });
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      // an already revoked or expired token is as good as revoked; anything else is said
      if (e.code !== 'auth/unauthenticated') process.stderr.write(`skillyard logout: could not revoke the token at ${client.base}: ${e.message}; forgetting it anyway\n`);
    }
    updateConfig({ token: undefined });
    process.stderr.write(`Signed out${process.env.SKILLYARD_TOKEN ? ' (SKILLYARD_TOKEN is still set)' : ''}.\n`);
    return 0;
  },
};
