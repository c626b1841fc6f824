// Teaches a run's scrubber (lib/log/secret-scrubber.ts) every secret the run is handed: the
// caller's held token values (OAuth connections, minted tokens) at once, and each
// environment secret or newly minted token the moment a tool receives it, so the
// scrubber knows a value before any event that could carry it is recorded.
import 'server-only';
import type { RunRuntime } from './run-server';
import type { SecretScrubber } from '../log';

export function learnRunSecrets(runtime: RunRuntime, scrubber: SecretScrubber): RunRuntime {
  for (const token of runtime.caller.tokens) scrubber.add(token.secret);
  const { environment, vault } = runtime.providers ?? {};
  const refreshHeld = runtime.refreshHeld;
  return {
    ...runtime,
    // a token refreshed mid-run is a new secret
    ...(refreshHeld && {
      async refreshHeld() {
        const tokens = await refreshHeld();
        for (const token of tokens) scrubber.add(token.secret);
        return tokens;
      },
    }),
    providers: {
      ...runtime.providers,
      ...(environment && {
        environment: {
          async get(scope, name) {
            const value = await environment.get(scope, name);
            scrubber.add(value);
            return value;
          },
        },
      }),
      ...(vault && {
        vault: {
          async mint(req) {
            const token = await vault.mint(req);
            scrubber.add(token.secret);
            return token;
          },
        },
      }),
    },
  };
}
