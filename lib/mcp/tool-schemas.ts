// JSON Schemas as MCP wants them: `inputSchema` and `outputSchema` must be objects of
// type "object"; a tool that takes no arguments gets an empty object schema, and a tool
// whose result is not an object gets no outputSchema (its result goes out as text only).

type Schema = Record<string, unknown>;

export function inputSchemaOf(params: Schema | null): Schema & { type: 'object' } {
  if (!params) return { type: 'object', properties: {} };
  return { ...params, type: 'object' } as Schema & { type: 'object' };
}

export function outputSchemaOf(returns: Schema | null): (Schema & { type: 'object' }) | undefined {
  if (!returns || returns.type !== 'object') return undefined;
  return returns as Schema & { type: 'object' };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
