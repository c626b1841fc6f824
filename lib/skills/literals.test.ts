import { describe, expect, it } from 'vitest';
import { parseJsonLocated } from './located-json';
import { parsePythonModule } from './python-literal';
import { parseTsModule } from './ts-literal';

describe('python literal reader', () => {
  it('reads module-level literals only', () => {
    const mod = parsePythonModule(
      `#!/usr/bin/env python3\n"""Module doc."""\nimport os\n__version__: str = "1.0" "" '.0'\nX = {'a': (1, 2,), "b": [True, None, -3.5e2, 0x1F, 1_000], 'c': {1, 2}, 'd': r'\\d+', 'e': """multi\nline"""}\nY = os.getcwd()\nclass K:\n    Z = 1\ndef execute(params, project_path):\n    W = 2\n    return W\nasync def main():\n    pass\n`,
      { maxDepth: 64 },
    );
    expect(mod.syntaxError).toBeNull();
    expect(mod.docstring).toBe('Module doc.');
    expect(mod.assignments.get('__version__')?.value).toBe('1.0.0');
    expect(mod.assignments.get('X')?.value).toEqual({ a: [1, 2], b: [true, null, -350, 31, 1000], c: [1, 2], d: '\\d+', e: 'multi\nline' });
    expect(mod.assignments.get('X')?.lines.get('/b')).toBe(5);
    expect(mod.nonLiteral.get('Y')).toBe(7);
    expect([...mod.assignments.keys()]).toEqual(['__version__', 'X']);
    expect([...mod.functions.keys()]).toEqual(['execute', 'main']);
    expect(mod.functions.get('main')?.async).toBe(true);
    expect(mod.classes.get('K')).toBe(8);
  });

  it('f-strings with substitutions, dict unpacking and calls are not literals', () => {
    const mod = parsePythonModule('A = f"{x}"\nB = {**c}\nC = dict(a=1)\nD = f"plain"\n', { maxDepth: 64 });
    expect([...mod.nonLiteral.keys()]).toEqual(['A', 'B', 'C']);
    expect(mod.assignments.get('D')?.value).toBe('plain');
  });

  it('unterminated strings are syntax errors with a line', () => {
    expect(parsePythonModule('A = 1\nB = "oops\n', { maxDepth: 64 }).syntaxError).toEqual({ message: 'unterminated string literal', line: 2 });
  });
});

describe('ts literal reader', () => {
  it('reads exported constants and default exports without evaluating', () => {
    const m = parseTsModule('const base = { a: 1 };\nexport const meta = { ...base };\nexport const ok = { n: -1, s: `t`, arr: [base] } as const;\nexport default class X {}\n', 'x.ts', { maxDepth: 64 });
    expect(m.hasDefaultExport).toBe(true);
    expect(m.exports.get('ok')).toMatchObject({ value: { n: -1, s: 't', arr: [{ a: 1 }] }, line: 3 });
    expect(m.exports.get('meta')).toMatchObject({ nonLiteral: 'object spread' });
  });
});

describe('located JSON', () => {
  it('maps pointers to lines and guards __proto__', () => {
    const r = parseJsonLocated('{\n  "a": [\n    1,\n    {"b": 2}\n  ],\n  "__proto__": {"x": 1}\n}', 64);
    expect(r.lines.get('/a/1/b')).toBe(4);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect((r.value as Record<string, unknown>)['__proto__']).toEqual({ x: 1 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it('agrees with JSON.parse on valid input', () => {
    const text = JSON.stringify({ s: 'é\n\u0001"\\', n: [-1.5e-3, 0, 12], t: true, f: false, z: null, o: {} });
    expect(parseJsonLocated(text, 64).value).toEqual(JSON.parse(text));
  });
});
