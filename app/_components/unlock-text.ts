// What unlocks a gated tool, in words: one line for its card, the playground's script
// and the run's notice. Shared by server and client components.
import type { ToolUnlock } from './tool-availability';

export function unlockText(t: { unlocks: ToolUnlock[] }): string {
  return t.unlocks.map((u) => (u.options.length ? `${u.options.map((o) => o.label).join(' or ')} (${u.issuer})` : `a ${u.issuer} token`)).join('; ');
}
