// In-memory EnvironmentProvider: secrets per caller id (a user or a team workspace).

import type { EnvironmentProvider } from './types';

export function createMemoryEnvironment(secrets: Record<string, Record<string, string>> = {}): EnvironmentProvider & {
  set(callerId: string, name: string, value: string): void;
} {
  return {
    async get(scope, name) {
      return secrets[scope.callerId]?.[name] ?? null;
    },
    set(callerId, name, value) {
      (secrets[callerId] ??= {})[name] = value;
    },
  };
}
