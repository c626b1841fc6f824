import { TEMPERATURES, UNITS } from './units';

export default async function list_units(input: { dimension?: string }, _capabilities: unknown) {
  const dimensions: Record<string, string[]> = {};
  for (const u of UNITS) (dimensions[u.dimension] ??= []).push(u.names[0]);
  dimensions.temperature = Object.keys(TEMPERATURES);
  if (input.dimension) return { dimensions: { [input.dimension]: dimensions[input.dimension] ?? [] } };
  return { dimensions };
}
