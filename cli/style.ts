// Colours only for a terminal, and never when NO_COLOR is set (https://no-color.org).

export type Style = { red(s: string): string; yellow(s: string): string; green(s: string): string; dim(s: string): string; bold(s: string): string };

export function styleFor(stream: NodeJS.WriteStream): Style {
  const on = !!stream.isTTY && !('NO_COLOR' in process.env && process.env.NO_COLOR !== undefined);
  const wrap = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
