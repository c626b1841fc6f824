import { describe, expect, it } from 'vitest';
import { codes, find, one } from '../test-helpers';

const base = (tools: unknown[], extra: Record<string, string> = {}) =>
  one({ 'app/package.json': '{"name": "@me/app", "version": "1.2.0", "description": "An app"}', 'app/tools.json': JSON.stringify(tools, null, 2), ...extra });

describe('malv tools.json', () => {
  it('maps schemas, capabilities, tokens and $defs into the manifest', () => {
    const m = base(
      [
        {
          name: 'list_emails',
          description: 'Lists emails',
          capabilities: ['storage'],
          input_tokens: { '@malv/auth': { required: ['account'] }, '@malv/gmail': { required: ['gmail_access'], allow_expired: ['gmail_access'] } },
          output_tokens: { '@malv/mail-cache': { required: ['cached'] } },
          $defs: { q: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
          input_schema: { type: 'object', properties: { questions: { type: 'array', items: { $ref: '#/$defs/q' } } } },
          output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
      ],
      { 'app/src/tools/list_emails.ts': 'export default async function list_emails(input, capabilities) { return { ok: true }; }' },
    );
    expect(m.format).toBe('malv');
    expect(m).toMatchObject({ name: 'app', version: '1.2.0', description: 'An app' });
    expect(m.diagnostics).toEqual([]);
    const t = m.tools[0];
    expect(t.name).toBe('list-emails');
    expect(t.capabilities).toEqual(['storage']);
    expect(t.inputTokens).toEqual({ '@malv/auth': { required: ['account'], allowExpired: [] }, '@malv/gmail': { required: ['gmail_access'], allowExpired: ['gmail_access'] } });
    expect(t.outputTokens).toEqual({ '@malv/mail-cache': { required: ['cached'] } });
    expect((t.params as { $defs: unknown }).$defs).toEqual({ q: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
    expect(t.handler).toEqual({ kind: 'ts', ref: 'src/tools/list_emails.ts' });
  });

  it('missing name/description are errors; missing capabilities/schemas are warnings (SPEC 7)', () => {
    const m = base([{ name: 'a' }, { description: 'no name' }]);
    expect(codes(m).sort()).toEqual(['malv/capabilities-missing', 'malv/handler-missing', 'malv/input-schema-missing', 'malv/output-schema-missing', 'tool/description-missing', 'tool/name-missing']);
    expect(m.tools[0]).toMatchObject({ capabilities: [], params: null, returns: null, handler: { kind: 'none', ref: null } });
  });

  it('arguments listed under a field tools.json does not read are named in the warning, not just "takes no arguments"', () => {
    const m = base([{ name: 'get_user', description: 'Fetches a user', capabilities: [], output_schema: { type: 'object' }, arguments: [{ name: 'username', type: 'string' }] }], {
      'app/src/tools/get_user.ts': 'export default async () => ({})',
    });
    expect(m.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'tool/arguments-ignored', path: '/0/arguments', message: expect.stringContaining('"arguments", which tools.json does not read') }),
    ]);
    expect(m.tools[0].params).toBeNull();
  });

  it('checks tokens', () => {
    const t = (tokens: Record<string, unknown>) =>
      codes(base([{ name: 'a', description: 'd', capabilities: [], input_schema: { type: 'object' }, output_schema: { type: 'object' }, ...tokens }], { 'app/src/tools/a.ts': 'export default async () => ({})' }));
    expect(t({ input_tokens: [] })).toEqual(['tokens/invalid']);
    expect(t({ input_tokens: { '@x/y': {} } })).toEqual(['tokens/required-missing']);
    expect(t({ input_tokens: { '@x/y': { required: [] } } })).toEqual(['tokens/required-missing']);
    expect(t({ input_tokens: { 'no-scope': { required: ['a'] } } })).toEqual(['tokens/issuer-invalid']);
    expect(t({ input_tokens: { '@x/y': { required: ['a'], allow_expired: ['b'] } } })).toEqual(['tokens/allow-expired-unknown']);
    expect(t({ output_tokens: { '@oauth/github': { required: ['account'] } } })).toEqual(['tokens/oauth-reserved']);
    expect(t({ capabilities: ['storage', 'teleport'] })).toEqual(['tool/capability-unknown']);
    expect(t({ capabilities: 'storage' })).toEqual(['tool/capabilities-invalid']);
  });

  it('unresolvable $ref fails to compile', () => {
    const m = base([{ name: 'a', description: 'd', capabilities: [], input_schema: { type: 'object', properties: { x: { $ref: '#/$defs/missing' } } }, output_schema: { type: 'object' } }], {
      'app/src/tools/a.ts': 'export default async () => ({})',
    });
    expect(find(m, 'schema/compile-failed')).toMatchObject({ severity: 'error', path: '/0/input_schema' });
  });

  it('folder name is the fallback skill name', () => {
    const m = one({ 'My App/tools.json': '[]' });
    expect(m.name).toBe('my-app');
    expect(codes(m)).toContain('malv/name-invalid');
  });
});
