import { describe, expect, it } from 'vitest';
import { addCommand, cliPackageArgs, mcpClientConfig, siteOrigin, TOKEN_PLACEHOLDER } from './client-config';

const h = (o: Record<string, string>) => new Headers(o);

describe('siteOrigin', () => {
  it('uses the Host the request arrived with', () => {
    expect(siteOrigin(h({ host: '127.0.0.1:3270' }), {})).toBe('http://127.0.0.1:3270');
  });
  it('prefers a proxy’s forwarded host and protocol', () => {
    expect(siteOrigin(h({ host: '10.0.0.5:3000', 'x-forwarded-host': 'skills.example.org', 'x-forwarded-proto': 'https' }), {})).toBe('https://skills.example.org');
  });
  it('uses AUTH_URL when the operator pins the origin (path dropped)', () => {
    expect(siteOrigin(h({ host: 'evil.example' }), { AUTH_URL: 'https://skillyard.example/api/auth' })).toBe('https://skillyard.example');
  });
  it('ignores hosts that are not host[:port] and odd protocols', () => {
    expect(siteOrigin(h({ host: 'a.example', 'x-forwarded-host': 'x.example/path?', 'x-forwarded-proto': 'javascript' }), {})).toBe('http://a.example');
    expect(siteOrigin(h({ host: 'bad host' }), {})).toBe('http://localhost:3000');
  });
});

describe('mcpClientConfig', () => {
  const public_ = mcpClientConfig({ origin: 'https://skillyard.example/', scope: 'skillyard', name: 'text-stats', needsToken: false }, {});
  it('points every snippet at the skill’s endpoint on the origin', () => {
    expect(public_.url).toBe('https://skillyard.example/api/mcp/skillyard/text-stats');
    expect(JSON.parse(public_.httpJson)).toEqual({ mcpServers: { 'text-stats': { type: 'http', url: public_.url } } });
    expect(public_.claudeCodeCommand).toBe('claude mcp add --transport http text-stats https://skillyard.example/api/mcp/skillyard/text-stats');
    // the CLI comes from this site, so the command works in any folder
    expect(public_.stdioCommand).toBe('npx -y https://skillyard.example/cli/skillyard.tgz mcp --registry https://skillyard.example --skill @skillyard/text-stats');
    expect(JSON.parse(public_.stdioJson)).toEqual({
      mcpServers: {
        'text-stats': {
          command: 'npx',
          args: ['-y', 'https://skillyard.example/cli/skillyard.tgz', 'mcp', '--registry', 'https://skillyard.example', '--skill', '@skillyard/text-stats'],
        },
      },
    });
    expect(public_.addCommand).toBe('npx -y https://skillyard.example/cli/skillyard.tgz add @skillyard/text-stats --registry https://skillyard.example');
    expect(public_.httpJson).not.toContain('Authorization');
    // VS Code's mcp.json: "servers", not "mcpServers"
    expect(JSON.parse(public_.vscodeJson)).toEqual({ servers: { 'text-stats': { type: 'http', url: public_.url } } });
    // readable: the args on one line, and still the same JSON
    expect(public_.stdioJson).toContain('"args": ["-y", "https://skillyard.example/cli/skillyard.tgz", "mcp", "--registry"');
  });
  it('adds an Authorization header (and SKILLYARD_TOKEN for stdio) when the skill needs a token', () => {
    const c = mcpClientConfig({ origin: 'http://127.0.0.1:3000', scope: 'acme', name: 'private-kit', needsToken: true }, {});
    expect(JSON.parse(c.httpJson).mcpServers['private-kit'].headers).toEqual({ Authorization: `Bearer ${TOKEN_PLACEHOLDER}` });
    expect(c.claudeCodeCommand).toContain(`--header "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`);
    expect(JSON.parse(c.stdioJson).mcpServers['private-kit'].env).toEqual({ SKILLYARD_TOKEN: TOKEN_PLACEHOLDER });
    // VS Code prompts for the token (an input) instead of keeping it in the file
    const vscode = JSON.parse(c.vscodeJson);
    expect(vscode.servers['private-kit'].headers).toEqual({ Authorization: 'Bearer ${input:skillyard-token}' });
    expect(vscode.inputs).toEqual([{ type: 'promptString', id: 'skillyard-token', description: 'Skillyard API token (invoke scope)', password: true }]);
  });
});

describe('the CLI in snippets', () => {
  it('uses the package the operator published to npm when SKILLYARD_CLI_PACKAGE names one', () => {
    const env = { SKILLYARD_CLI_PACKAGE: '@acme/skillyard@0.2.0' };
    expect(cliPackageArgs('https://r.example', env)).toEqual(['-y', '@acme/skillyard@0.2.0']);
    expect(addCommand({ origin: 'https://r.example', scope: 'a', name: 'b' }, env)).toBe('npx -y @acme/skillyard@0.2.0 add @a/b --registry https://r.example');
    // an older version's page installs that version
    expect(addCommand({ origin: 'https://r.example', scope: 'a', name: 'b', version: '1.0.0' }, env)).toBe(
      'npx -y @acme/skillyard@0.2.0 add @a/b@1.0.0 --registry https://r.example',
    );
    expect(JSON.parse(mcpClientConfig({ origin: 'https://r.example', scope: 'a', name: 'b', needsToken: false }, env).stdioJson).mcpServers.b.args.slice(0, 3)).toEqual([
      '-y',
      '@acme/skillyard@0.2.0',
      'mcp',
    ]);
  });
  it('ignores a setting that is not a package name (no shell words slip into a snippet)', () => {
    expect(cliPackageArgs('https://r.example', { SKILLYARD_CLI_PACKAGE: 'skillyard; rm -rf ~' })).toEqual(['-y', 'https://r.example/cli/skillyard.tgz']);
  });
});
