import { findUnit, TEMPERATURE_ALIASES, TEMPERATURES } from './units';

type Input = { value: number; from: string; to: string; precision?: number };

export default async function convert_units(input: Input, _capabilities: unknown) {
  const precision = input.precision ?? 10;
  const round = (v: number) => Number(v.toPrecision(Math.max(1, precision)));
  const tf = TEMPERATURES[TEMPERATURE_ALIASES[input.from] ?? input.from];
  const tt = TEMPERATURES[TEMPERATURE_ALIASES[input.to] ?? input.to];
  if (tf || tt) {
    if (!tf || !tt) return { error: `cannot convert ${input.from} to ${input.to}: only temperatures convert to temperatures` };
    const value = round(tt.fromK(tf.toK(input.value)));
    return { value, unit: input.to, dimension: 'temperature', formatted: `${value} ${input.to}` };
  }
  const from = findUnit(input.from);
  const to = findUnit(input.to);
  if (!from) return { error: `unknown unit "${input.from}"; call list_units` };
  if (!to) return { error: `unknown unit "${input.to}"; call list_units` };
  if (from.dimension !== to.dimension) return { error: `cannot convert ${from.dimension} (${input.from}) to ${to.dimension} (${input.to})` };
  const value = round((input.value * from.factor) / to.factor);
  return { value, unit: input.to, dimension: from.dimension, formatted: `${value} ${input.to}` };
}
