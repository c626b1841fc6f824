// Default and maximum limits for one sandbox job. Callers may lower or raise a limit
// per job within the hard caps below; the caps protect the worker process itself.
import type { SandboxLimits } from './types';

export type ResolvedLimits = Required<SandboxLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = {
  memoryMb: 64,
  cpuMs: 1_000,
  wallMs: 10_000,
  maxResultBytes: 1_000_000,
  maxHostCalls: 1_000,
  maxHostCallBytes: 8_000_000,
};

/** Hard caps: a job asking for more gets the cap (isolated-vm's minimum heap is 8 MB). */
const BOUNDS: Record<keyof ResolvedLimits, [min: number, max: number]> = {
  memoryMb: [8, 1_024],
  cpuMs: [1, 60_000],
  wallMs: [1, 600_000],
  maxResultBytes: [2, 64_000_000],
  maxHostCalls: [0, 1_000_000],
  maxHostCallBytes: [2, 64_000_000],
};

export function resolveLimits(job: SandboxLimits | undefined, defaults: SandboxLimits = {}): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(out) as (keyof ResolvedLimits)[]) {
    const wanted = job?.[name] ?? defaults[name];
    if (typeof wanted !== 'number' || !Number.isFinite(wanted)) continue;
    const [min, max] = BOUNDS[name];
    out[name] = Math.min(max, Math.max(min, Math.floor(wanted)));
  }
  return out;
}
