import { createMemoryEnvironment } from '../capabilities/memory-environment';
import { createMemoryEventBus } from '../capabilities/memory-events';
import { createMemoryStorage } from '../capabilities/memory-storage';
import { createHmacTokenSigner } from '../capabilities/hmac-token-signer';
import { createMemoryVault } from '../capabilities/memory-vault';
import type { AiProvider, CapabilityProviders, ObjectComponent } from '../capabilities/types';
import { createToolManager } from '../manager';
import type { Caller, LoadedSkill, ToolManagerOptions } from '../types';
import type { Sandbox } from '../../sandbox/types';

export type ManagerOverrides = Omit<Partial<ToolManagerOptions>, 'caller' | 'providers'> & {
  caller?: Partial<Caller>;
  providers?: Partial<CapabilityProviders>;
};

/** A manager over in-memory providers; returns the providers too so tests can look inside. */
export function createManager(sandbox: Sandbox, skills: LoadedSkill[], over: ManagerOverrides = {}) {
  const objects: ObjectComponent[] = [];
  const echoAi: AiProvider = async (_scope, req) => ({ text: `echo: ${req.messages.at(-1)?.content}` });
  const memory = {
    storage: createMemoryStorage(),
    signer: createHmacTokenSigner('test-key'),
    vault: createMemoryVault(),
    environment: createMemoryEnvironment({ u1: { API_KEY: 'sk-test' } }),
    events: createMemoryEventBus(),
  };
  const { caller, providers: overProviders, ...rest } = over;
  const manager = createToolManager({
    sandbox,
    ...rest,
    skills,
    caller: { id: 'u1', kind: 'user', tokens: [], ...caller },
    providers: { ...memory, ai: echoAi, onObject: (o) => void objects.push(o), ...overProviders },
  });
  return { manager, providers: memory, objects };
}
