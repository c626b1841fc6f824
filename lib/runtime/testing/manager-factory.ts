import { createMemoryEnvironment } from '../capabilities/memory-environment';
import { createMemoryEventBus } from '../capabilities/memory-events';
import { createMemoryStorage } from '../capabilities/memory-storage';
import { createMemorySigner, createMemoryVault } from '../capabilities/memory-tokens';
import type { CapabilityProviders, ObjectComponent } from '../capabilities/types';
import { createToolManager } from '../manager';
import type { Caller, LoadedSkill, ToolManagerOptions } from '../types';
import type { Sandbox } from '../../sandbox/types';

/** A manager over in-memory providers; returns the providers too so tests can look inside. */
export function createManager(
  sandbox: Sandbox,
  skills: LoadedSkill[],
  over: Partial<ToolManagerOptions> & { caller?: Partial<Caller> } = {},
) {
  const objects: ObjectComponent[] = [];
  const providers = {
    storage: createMemoryStorage(),
    signer: createMemorySigner('test-key'),
    vault: createMemoryVault(),
    environment: createMemoryEnvironment({ u1: { API_KEY: 'sk-test' } }),
    events: createMemoryEventBus(),
    ai: async (_scope, req) => ({ text: `echo: ${req.messages.at(-1)?.content}` }),
    onObject: (o) => void objects.push(o),
    ...over.providers,
  } satisfies CapabilityProviders;
  const { caller, ...rest } = over;
  const manager = createToolManager({
    sandbox,
    ...rest,
    skills,
    caller: { id: 'u1', kind: 'user', tokens: [], ...caller },
    providers,
  });
  return { manager, providers, objects };
}
