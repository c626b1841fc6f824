// Rye `parameters` list -> JSON Schema; required only with `required: true` (SPEC 7).

import { ptr, type FileScope } from '../../diagnostic-sink';
import { isPlainObject } from '../../package';

const PARAM_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export function ryeParametersToSchema(list: unknown, scope: FileScope, at: string): Record<string, unknown> | null {
  if (!Array.isArray(list)) {
    scope.error('rye/parameters-invalid', 'parameters must be a list of { name, type, required, description }', at);
    return null;
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  list.forEach((p, i) => {
    const pp = ptr(at, i);
    if (!isPlainObject(p)) return scope.error('param/invalid', 'each parameter must be a mapping', pp);
    if (typeof p.name !== 'string' || !p.name) return scope.error('rye/param-name-missing', 'parameter has no name', pp);
    if (Object.prototype.hasOwnProperty.call(properties, p.name)) return scope.error('rye/param-duplicate', `parameter "${p.name}" is declared twice`, ptr(pp, 'name'));
    if (p.type === undefined) scope.error('param/type-missing', `parameter "${p.name}" has no type`, pp);
    else if (typeof p.type !== 'string' || !PARAM_TYPES.has(p.type)) scope.error('param/type-invalid', `parameter "${p.name}" has type ${JSON.stringify(p.type)}; it must be a JSON Schema type`, ptr(pp, 'type'));
    if (p.required !== undefined && typeof p.required !== 'boolean') scope.error('param/required-invalid', 'required must be true or false', ptr(pp, 'required'));
    if (typeof p.description !== 'string' || !p.description.trim()) scope.warn('param/description-missing', `parameter "${p.name}" has no description`, pp);
    const { name, required: req, ...rest } = p;
    properties[name as string] = rest;
    if (req === true) required.push(name as string);
  });
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
