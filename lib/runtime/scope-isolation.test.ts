// Issue 8 item 7: every per-skill namespace is the full @scope/name. Two skills named
// `notebook` in different scopes, loaded by the same caller, share nothing: not storage,
// not token signing keys, not a warm isolate.
import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from './testing/harness';
import { skill, tool } from './testing/skills';
import { createMemoryStorage } from './capabilities/memory-storage';
import { createHmacTokenSigner } from './capabilities/hmac-token-signer';
import type { LoadedSkill } from './types';

afterAll(closeSharedSandbox);

/** `@<scope>/notebook` with one malv tool `t` whose body is `body`. */
function notebook(scope: string, body: string, capabilities: string[]): LoadedSkill {
  return skill('notebook', [tool('t', { capabilities, params: { type: 'object' }, handler: { kind: 'ts', ref: 't.ts' } })], {
    scope,
    format: 'malv',
    files: { 't.ts': `export default async function t(input: any, capabilities: any) { ${body} }` },
  });
}

describe('per-skill namespaces across scopes', () => {
  it("@mallory/notebook cannot read @skillyard/notebook's storage", async () => {
    const storage = createMemoryStorage();
    const providers = { storage };
    const victim = notebook('skillyard', `await capabilities.storage.put('secret', input.v); return await capabilities.storage.get('secret');`, ['storage']);
    const thief = notebook('mallory', `return { got: await capabilities.storage.get('secret'), keys: await capabilities.storage.list('') };`, ['storage']);
    expect(await createManager(sharedInProcessSandbox(), [victim], { providers }).manager.invoke('t', { v: 'diary' })).toBe('diary');
    expect(await createManager(sharedInProcessSandbox(), [thief], { providers }).manager.invoke('t', {})).toEqual({ got: null, keys: [] });
  });

  it('a token signed by @skillyard/notebook does not verify in @mallory/notebook', async () => {
    const providers = { signer: createHmacTokenSigner('one-server-key') };
    const signer = notebook('skillyard', `return await capabilities.token.sign({ admin: true });`, ['token']);
    const token = (await createManager(sharedInProcessSandbox(), [signer], { providers }).manager.invoke('t', {})) as string;
    const verify = (scope: string) =>
      createManager(sharedInProcessSandbox(), [notebook(scope, `return await capabilities.token.verify(input.token);`, ['token'])], { providers }).manager.invoke('t', { token });
    expect(await verify('skillyard')).toEqual({ valid: true, payload: { admin: true } });
    expect(await verify('mallory')).toEqual({ valid: false, reason: 'bad signature' });
  });

  it('the same code in two scopes runs in two warm isolates for one caller', async () => {
    // a global set by one skill's isolate must not be visible to the other's
    const body = `const g = globalThis as any; const before = g.__seen ?? null; g.__seen = input.who; return before;`;
    const sb = sharedInProcessSandbox();
    const run = (scope: string, who: string) => createManager(sb, [notebook(scope, body, [])]).manager.invoke('t', { who });
    expect(await run('skillyard', 'skillyard')).toBeNull();
    expect(await run('skillyard', 'skillyard')).toBe('skillyard'); // warm: the same isolate kept its global
    expect(await run('mallory', 'mallory')).toBeNull();
  });
});
