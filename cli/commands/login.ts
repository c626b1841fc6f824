// `skillyard login`: device flow, as the GitHub CLI does. The CLI prints a code and a URL
// (and opens the browser when it can); the person confirms the code while signed in; the
// CLI receives an API token and keeps it in its config file (mode 0600).
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { type Command } from '../command';
import { updateConfig } from '../credentials';
import { registryClient, RegistryError } from '../registry-client';
import { styleFor } from '../style';

const usage = `Usage: skillyard login [--registry URL] [--no-browser]

Signs this computer in to a Skillyard registry: prints a one-time code and a URL, opens
the browser when it can, and waits until you confirm the code there (signed in). The API
token it receives is stored in $SKILLYARD_HOME/config.json (default ~/.skillyard/config.json,
mode 0600) together with the registry URL. SKILLYARD_TOKEN, when set, overrides it.

Options:
  --registry URL   the registry (default: SKILLYARD_REGISTRY, the saved one, or http://127.0.0.1:3000)
  --no-browser     only print the URL
`;

type Start = { deviceCode: string; userCode: string; verificationUri: string; verificationUriComplete: string; interval: number; expiresIn: number };
type Poll = { status: 'pending' } | { status: 'approved'; token: string; handle: string | null };

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no browser here: the printed URL is enough
  }
}

export const login: Command = {
  name: 'login',
  summary: 'sign this computer in to a registry (stores an API token)',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { registry: { type: 'string' }, 'no-browser': { type: 'boolean' } } });
    const client = registryClient({ registry: values.registry });
    const s = styleFor(process.stderr);
    let start: Start;
    try {
      start = await client.json<Start>('/api/auth/device', { method: 'POST', auth: false });
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard login: ${e.message} [${e.code}]\n`);
      return 1;
    }
    process.stderr.write(`Open ${s.bold(start.verificationUri)} and confirm the code ${s.bold(start.userCode)}\n(or go straight to ${start.verificationUriComplete})\n`);
    const headless = values['no-browser'] || (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY);
    if (!headless) openBrowser(start.verificationUriComplete);
    const deadline = Date.now() + start.expiresIn * 1000;
    const interval = Math.max(1, start.interval) * 1000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, interval));
      let poll: Poll;
      try {
        poll = await client.json<Poll>('/api/auth/device/token', {
          method: 'POST',
          auth: false,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ deviceCode: start.deviceCode }),
        });
      } catch (e) {
        if (!(e instanceof RegistryError)) throw e;
        if (e.code === 'registry/unreachable') continue;
        process.stderr.write(`skillyard login: ${e.message} [${e.code}]\n`);
        return 1;
      }
      if (poll.status === 'approved') {
        const file = updateConfig({ registry: client.base, token: poll.token });
        process.stderr.write(`Signed in${poll.handle ? ` as @${poll.handle}` : ''} at ${client.base}; token saved in ${file}\n`);
        if (process.env.SKILLYARD_TOKEN) process.stderr.write('Note: SKILLYARD_TOKEN is set and overrides the saved token.\n');
        return 0;
      }
    }
    process.stderr.write('skillyard login: the code expired before it was confirmed; run it again\n');
    return 1;
  },
};
