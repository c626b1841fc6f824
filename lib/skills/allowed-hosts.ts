// The hosts a skill's `net` capability may reach, as its metadata lists them
// (`metadata.net.hosts`, or `metadata.allowedHosts` / `allowed-hosts` / `hosts`), lowercased.
// Pure, so the kernel, the permission summary (lib/trust) and the CLI read them alike.
export function allowedHostsOf(metadata: Record<string, unknown> | undefined): string[] {
  const m = metadata ?? {};
  const net = m.net as { hosts?: unknown } | undefined;
  const lists = [net && typeof net === 'object' ? net.hosts : undefined, m.allowedHosts, m['allowed-hosts'], m.hosts];
  const out: string[] = [];
  for (const l of lists) {
    if (Array.isArray(l)) out.push(...l.filter((h): h is string => typeof h === 'string'));
    else if (typeof l === 'string') out.push(...l.split(/[\s,]+/).filter(Boolean));
  }
  return out.map((h) => h.toLowerCase());
}
