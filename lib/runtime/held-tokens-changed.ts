// A process-wide signal that a holder's tokens changed (an account connection made or
// removed, a token minted by a tool, a team connection, a membership): the places that
// write held tokens announce it, and whoever shows a holder what it may use (open MCP
// sessions: tools/list_changed) listens. In this process only; listeners must not throw.
export type HeldTokensListener = (holderId: string) => void | Promise<void>;

const shared = globalThis as unknown as { skillyardHeldTokensListeners?: Set<HeldTokensListener> };
// shared through globalThis: Next.js may load this module once per route bundle
const listeners = (shared.skillyardHeldTokensListeners ??= new Set<HeldTokensListener>());

/** Calls `listener` with the holder id (`user:<id>`) whenever its tokens change; returns the unsubscribe. */
export function onHeldTokensChanged(listener: HeldTokensListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Announces that these holders' tokens changed. Never throws and never waits for listeners. */
export function heldTokensChanged(...holderIds: string[]): void {
  for (const holderId of new Set(holderIds)) {
    for (const listener of listeners) {
      try {
        void Promise.resolve(listener(holderId)).catch(() => {});
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
