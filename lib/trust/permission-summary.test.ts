import { describe, expect, it } from 'vitest';
import type { SkillManifest, ToolManifest } from '../skills';
import { summarizePermissions, summaryFromLegacy } from './permission-summary';
import { diffPermissions, diffSentences, permissionFacts } from './permission-diff';
import { toolAnnotationsFor } from './tool-annotations';

function tool(over: Partial<ToolManifest>): ToolManifest {
  return {
    name: 't',
    sourceName: 't',
    description: '',
    role: null,
    visibility: null,
    tags: [],
    params: null,
    returns: null,
    capabilities: [],
    inputTokens: {},
    outputTokens: {},
    handler: { kind: 'js', ref: 'index.js' },
    executor: null,
    timeoutMs: null,
    ...over,
  };
}
const manifest = (tools: ToolManifest[], metadata: Record<string, unknown> = {}, allowedTools: string | null = null) =>
  ({ tools, metadata, allowedTools }) as Pick<SkillManifest, 'tools' | 'metadata' | 'allowedTools'>;

describe('summarizePermissions', () => {
  it('reads every kind of permission from the manifest', () => {
    const s = summarizePermissions(
      manifest(
        [
          tool({
            capabilities: ['net.http', 'storage'],
            inputTokens: { '@oauth/github': { required: ['repo'], allowExpired: [] }, '@acme/auth': { required: [], allowExpired: [] } },
          }),
          tool({ name: 'u', capabilities: ['environment', 'tool'], outputTokens: { '@acme/session': { required: [] } }, handler: { kind: 'python', ref: 'x.py' } }),
        ],
        { net: { hosts: ['API.example.com'] } },
      ),
    );
    expect(s).toEqual({
      capabilities: ['environment', 'net', 'storage', 'tool'],
      network: ['api.example.com'],
      tokensRead: ['@acme/auth'],
      tokensMinted: ['@acme/session'],
      connections: ['@oauth/github'],
      secrets: true,
      subprocess: ['python'],
      tools: ['own scope'],
      storage: true,
    });
  });

  it('lists allowed-tools entries (not denials) as the tools it may call', () => {
    expect(summarizePermissions(manifest([], {}, 'file-read web-*(url=https://*) rm($deny)')).tools).toEqual(['file-read', 'web-*(url=https://*)']);
  });

  it('is empty for a skill of instructions only', () => {
    const s = summarizePermissions(manifest([]));
    expect(permissionFacts(s)).toEqual([]);
  });
});

describe('diffPermissions', () => {
  const v1 = summarizePermissions(manifest([tool({ capabilities: ['net'] })], { net: { hosts: ['a.example.com'] } }));
  const v2 = summarizePermissions(manifest([tool({ capabilities: ['net'] })], { net: { hosts: ['a.example.com', 'api.example.com'] } }));

  it('says in words what a newer version adds, and that it widens', () => {
    const d = diffPermissions(v1, v2);
    expect(d.widens).toBe(true);
    expect(diffSentences(d, '1.3.0')).toEqual(['1.3.0 adds network access to api.example.com']);
  });

  it('a narrowing is not a widening', () => {
    const d = diffPermissions(v2, v1);
    expect(d.widens).toBe(false);
    expect(diffSentences(d, '1.2.0')).toEqual(['1.2.0 drops network access to api.example.com']);
  });

  it('the same permissions give no difference', () => {
    expect(diffPermissions(v1, v1)).toEqual({ added: [], removed: [], widens: false });
  });

  it('a lock entry of the old shape never reads as a widening on its own', () => {
    const next = summarizePermissions(
      manifest(
        [tool({ capabilities: ['net'], inputTokens: { '@acme/auth': { required: [], allowExpired: [] } }, handler: { kind: 'bash', ref: 'x.sh' } })],
        { hosts: 'a.example.com' },
        'file-read',
      ),
    );
    const legacy = summaryFromLegacy({ capabilities: ['net'], network: ['a.example.com'], tokens: ['@acme/auth'], subprocess: true }, next);
    expect(diffPermissions(legacy, next).widens).toBe(false);
  });
});

describe('toolAnnotationsFor', () => {
  it('a net tool is open-world and not read-only', () => {
    expect(toolAnnotationsFor({ capabilities: ['net'], handler: 'js' })).toEqual({ readOnlyHint: false, openWorldHint: true });
  });
  it('a sandboxed tool that declares nothing is read-only and not destructive', () => {
    expect(toolAnnotationsFor({ capabilities: [], handler: 'js', mints: [] })).toEqual({ readOnlyHint: true, openWorldHint: false, destructiveHint: false });
  });
  it('a subprocess is open-world; storage or minting is not read-only', () => {
    expect(toolAnnotationsFor({ capabilities: [], handler: 'bash' })).toEqual({ readOnlyHint: false, openWorldHint: true });
    expect(toolAnnotationsFor({ capabilities: ['storage'], handler: 'js' }).readOnlyHint).toBe(false);
    expect(toolAnnotationsFor({ capabilities: [], handler: 'js', mints: ['@a/b'] }).readOnlyHint).toBe(false);
  });
  it('an unknown handler is never called read-only', () => {
    expect(toolAnnotationsFor({ capabilities: [] }).readOnlyHint).toBe(false);
  });
});
