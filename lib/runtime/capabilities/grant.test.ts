import { describe, expect, it } from 'vitest';
import { callCapability, grantedCapabilities, hostMethodsFor, type CapabilityCallContext } from './grant';
import { createMemoryStorage } from './memory-storage';
import { skill, tool } from '../testing/skills';

describe('grantedCapabilities', () => {
  it('grants exactly what is declared; rye dotted names map to their first part, unknown names grant nothing', () => {
    expect(grantedCapabilities(tool('t', { capabilities: ['storage', 'net.http', 'fs.write', 'shell.execute'] }))).toEqual(['storage', 'net']);
    expect(hostMethodsFor(['storage'])).toEqual(['storage_get', 'storage_put', 'storage_delete', 'storage_list']);
  });
});

describe('callCapability (host side)', () => {
  const t = tool('t', { capabilities: ['storage'] });
  const ctx = (granted: CapabilityCallContext['granted']): CapabilityCallContext => ({
    skill: skill('s', [t]),
    tool: t,
    scope: { callerId: 'u1', callerKind: 'user', skill: 's', tool: 't' },
    granted,
    providers: { storage: createMemoryStorage() },
    invoke: async () => null,
    deliver: async () => null,
    addHeldToken: () => {},
  });
  it('refuses a forged call to a capability the tool was not granted', async () => {
    await expect(callCapability(ctx(['storage']), 'environment_get', ['API_KEY'])).rejects.toMatchObject({
      code: 'capability/not-declared',
      message: 'capability "environment" is not declared by tool t (declared: storage); add "environment" to its capabilities',
    });
    await expect(callCapability(ctx(['storage']), 'process_exit', [])).rejects.toMatchObject({ code: 'capability/denied' });
  });
  it('refuses values over the storage size limit and bad keys', async () => {
    await expect(callCapability(ctx(['storage']), 'storage_put', ['default', 'k', 'x'.repeat(1024 * 1024 + 1)])).rejects.toMatchObject({ code: 'storage/too-large' });
    await expect(callCapability(ctx(['storage']), 'storage_get', ['default', ''])).rejects.toMatchObject({ code: 'capability/invalid-args' });
  });
});
