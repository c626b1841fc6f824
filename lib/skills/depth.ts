/** Iterative depth check that is safe on shared and cyclic references. */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Map<object, number>();
  let visits = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > maxDepth) return true;
    const prev = seen.get(v);
    if (prev !== undefined && prev >= d) continue;
    seen.set(v, d);
    if (++visits > 1_000_000) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}
