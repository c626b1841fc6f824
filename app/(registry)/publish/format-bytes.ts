/** "50 MB", "1.5 MB", "900 KB": a size as the publish page states its limits. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Number((n / 1024 / 1024).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}
