// How one environment variable is read: its parser, its default and whether
// docs/configuration.md must list it. A value that does not parse is a ConfigError naming
// the variable; an unset (or empty, for numbers and choices) variable takes the default.
export type Env = Record<string, string | undefined>;

/** `documented`: an operator setting (docs/configuration.md lists it); `internal`: set by our own scripts or tests. */
export type SettingKind = 'documented' | 'internal';

export type Setting<T> = { kind: SettingKind; parse: (raw: string | undefined, name: string) => T };

export class ConfigError extends Error {
  readonly code = 'config/invalid';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message.startsWith(variable) ? message : `${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === '';

function wholeNumber(raw: string, name: string, min: number, max = Infinity): number {
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < min) throw new ConfigError(name, `must be an integer of at least ${min} (got "${raw}")`);
  if (n > max) throw new ConfigError(name, `must be an integer of at most ${max} (got "${raw}")`);
  return n;
}

/** A whole number of at least `min`, `fallback` when unset. */
export const int = (fallback: number, min = 0, kind: SettingKind = 'documented'): Setting<number> => ({
  kind,
  parse: (raw, name) => (blank(raw) ? fallback : wholeNumber(raw, name, min)),
});

/** A whole number from `min` to `max`, `fallback` when unset. */
export const intBetween = (fallback: number, min: number, max: number, kind: SettingKind = 'documented'): Setting<number> => ({
  kind,
  parse: (raw, name) => (blank(raw) ? fallback : wholeNumber(raw, name, min, max)),
});

/** A whole number of at least `min`, undefined when unset (the reader picks a default from the machine). */
export const optionalInt = (min = 0, kind: SettingKind = 'documented'): Setting<number | undefined> => ({
  kind,
  parse: (raw, name) => (blank(raw) ? undefined : wholeNumber(raw, name, min)),
});

/** Text as given (an empty value stays empty), `fallback` when unset. */
export function text(fallback: string, kind?: SettingKind): Setting<string>;
export function text(fallback?: undefined, kind?: SettingKind): Setting<string | undefined>;
export function text(fallback?: string, kind: SettingKind = 'documented'): Setting<string | undefined> {
  return { kind, parse: (raw) => raw ?? fallback };
}

/** `1` on, `0` (or unset) off; `onByDefault` flips the unset case. */
export const flag = (onByDefault = false, kind: SettingKind = 'documented'): Setting<boolean> => ({
  kind,
  parse: (raw, name) => {
    if (blank(raw)) return onByDefault;
    if (raw.trim() === '1') return true;
    if (raw.trim() === '0') return false;
    throw new ConfigError(name, `must be 1 or 0 (got "${raw}")`);
  },
});

/** One of `values`, `fallback` when unset. */
export const oneOf = <const V extends string>(values: readonly V[], fallback: V, kind: SettingKind = 'documented'): Setting<V> => ({
  kind,
  parse: (raw, name) => {
    if (blank(raw)) return fallback;
    const v = raw.trim() as V;
    if (!values.includes(v)) throw new ConfigError(name, `must be ${values.map((x) => `"${x}"`).join(' or ')} (got "${raw}")`);
    return v;
  },
});

/** Words separated by commas or spaces. */
export const list = (kind: SettingKind = 'documented'): Setting<string[]> => ({
  kind,
  parse: (raw) => (raw ?? '').split(/[\s,]+/).filter(Boolean),
});

/** Any other shape: `parse` throws a ConfigError (or returns the value). */
export const custom = <T>(parse: (raw: string | undefined, name: string) => T, kind: SettingKind = 'documented'): Setting<T> => ({ kind, parse });
