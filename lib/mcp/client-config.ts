// What a person pastes into an MCP client to use one registry skill: the Streamable HTTP
// URL of /api/mcp/<scope>/<name> on this site, the JSON that Cursor, Claude Code
// (.mcp.json) and VS Code read, the `claude mcp add` line, and the local stdio server
// (`npx -y <site>/cli/skillyard.tgz mcp --skill @scope/name`) that Claude Desktop and any
// stdio client start, and the `skillyard add` line. Every command works from any folder:
// the CLI comes from this site's own tarball (app/cli/[file]/route.ts), or from npm when
// the operator set SKILLYARD_CLI_PACKAGE to the name it is published under.
// Pure: the skill page passes the site's origin (siteOrigin below) and the skill.
import { setting, type Env } from '../config';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * The origin people reach this site at: AUTH_URL (or NEXTAUTH_URL) when the operator
 * pins it, else the Host (X-Forwarded-Host/-Proto behind a proxy) the
 * request arrived with. A host header that is not host[:port] is ignored.
 */
export function siteOrigin(headers: Pick<Headers, 'get'>, env?: Env): string {
  for (const pinned of [setting('AUTH_URL', env), setting('NEXTAUTH_URL', env)]) {
    if (!pinned) continue;
    try {
      const u = new URL(pinned);
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
    } catch {
      /* not a URL: try the next */
    }
  }
  const first = (v: string | null) => (v ?? '').split(',')[0].trim();
  const forwarded = first(headers.get('x-forwarded-host'));
  const host = HOST.test(forwarded) ? forwarded : first(headers.get('host'));
  if (!HOST.test(host)) return 'http://localhost:3000';
  const proto = first(headers.get('x-forwarded-proto'));
  return `${proto === 'https' || proto === 'http' ? proto : 'http'}://${host}`;
}

const NPM_SPEC = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(?:@[A-Za-z0-9._^~<>=-]+)?$/;

/**
 * What runs the CLI from anywhere, as argv after `npx`: `-y <origin>/cli/skillyard.tgz`
 * (the tarball this site serves), or `-y <name>` when SKILLYARD_CLI_PACKAGE names the
 * package the operator published to npm (`skillyard`, `@acme/skillyard@0.2.0`).
 */
export function cliPackageArgs(origin: string, env?: Env): string[] {
  const published = setting('SKILLYARD_CLI_PACKAGE', env)?.trim();
  if (published && NPM_SPEC.test(published)) return ['-y', published];
  return ['-y', `${origin.replace(/\/+$/, '')}/cli/skillyard.tgz`];
}

/** `npx -y <cli> add @scope/name[@version] --registry <origin>`: the install line of a skill page (`version` for a page showing an older one). */
export function addCommand(opts: { origin: string; scope: string; name: string; version?: string; cli?: string[] }, env?: Env): string {
  const origin = opts.origin.replace(/\/+$/, '');
  const spec = `@${opts.scope}/${opts.name}${opts.version ? `@${opts.version}` : ''}`;
  return ['npx', ...(opts.cli ?? cliPackageArgs(origin, env)), 'add', spec, '--registry', origin].join(' ');
}

export type McpClientConfig = {
  /** the Streamable HTTP endpoint of the skill */
  url: string;
  /** the server's name in a client's configuration (the skill's name) */
  serverName: string;
  /** `claude mcp add --transport http ...` */
  claudeCodeCommand: string;
  /** `{"mcpServers": {...}}` for Cursor and Claude Code's .mcp.json (remote, over HTTP) */
  httpJson: string;
  /** `{"servers": {...}}` for VS Code's .vscode/mcp.json, the token (when one is needed) as a prompted input */
  vscodeJson: string;
  /** `npx -y <cli> mcp --registry <origin> --skill @scope/name` */
  stdioCommand: string;
  /** `{"mcpServers": {...}}` for Claude Desktop and other stdio clients (runs on the user's machine) */
  stdioJson: string;
  /** `npx -y <cli> add @scope/name --registry <origin>` */
  addCommand: string;
  /** whether the snippets carry an Authorization header to fill in */
  needsToken: boolean;
};

export const TOKEN_PLACEHOLDER = 'sy_YOUR_API_TOKEN';

/** JSON.stringify(v, null, 2), with arrays of plain values on one line (`"args": ["a", "b"]`). */
function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\n\s*((?:"(?:[^"\\]|\\.)*"|[\d.eE+-]+|true|false|null)(?:,\n\s*(?:"(?:[^"\\]|\\.)*"|[\d.eE+-]+|true|false|null))*)\n\s*\]/g,
    (_m, items: string) => `[${items.split(/,\n\s*/).join(', ')}]`,
  );
}

/**
 * The snippets for @scope/name. `needsToken`: the skill is not public or some tool needs a
 * token the caller's connections provide, so the HTTP snippets carry an Authorization header
 * (an API token with the `invoke` scope, made in Settings); a public skill works without one.
 */
export function mcpClientConfig(opts: { origin: string; scope: string; name: string; needsToken: boolean; version?: string }, env?: Env): McpClientConfig {
  const origin = opts.origin.replace(/\/+$/, '');
  const url = `${origin}/api/mcp/${encodeURIComponent(opts.scope)}/${encodeURIComponent(opts.name)}`;
  const serverName = opts.name;
  const auth = `Bearer ${TOKEN_PLACEHOLDER}`;
  const http: Record<string, unknown> = { type: 'http', url };
  if (opts.needsToken) http.headers = { Authorization: auth };
  const claudeCodeCommand = `claude mcp add --transport http ${serverName} ${url}${opts.needsToken ? ` --header "Authorization: ${auth}"` : ''}`;
  const args = [...cliPackageArgs(origin, env), 'mcp', '--registry', origin, '--skill', `@${opts.scope}/${opts.name}`];
  const stdio: Record<string, unknown> = { command: 'npx', args };
  if (opts.needsToken) stdio.env = { SKILLYARD_TOKEN: TOKEN_PLACEHOLDER };
  return {
    url,
    serverName,
    claudeCodeCommand,
    httpJson: prettyJson({ mcpServers: { [serverName]: http } }),
    vscodeJson: prettyJson({
      servers: { [serverName]: opts.needsToken ? { ...http, headers: { Authorization: 'Bearer ${input:skillyard-token}' } } : http },
      ...(opts.needsToken ? { inputs: [{ type: 'promptString', id: 'skillyard-token', description: 'Skillyard API token (invoke scope)', password: true }] } : {}),
    }),
    stdioCommand: `npx ${args.join(' ')}`,
    addCommand: addCommand(opts, env),
    stdioJson: prettyJson({ mcpServers: { [serverName]: stdio } }),
    needsToken: opts.needsToken,
  };
}
