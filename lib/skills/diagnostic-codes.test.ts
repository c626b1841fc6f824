import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from './diagnostic-codes';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'fixtures' ? [] : sources(path.join(dir, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('diagnostic codes', () => {
  const emitted = new Set<string>();
  for (const f of sources(__dirname)) {
    if (f.endsWith('diagnostic-codes.ts')) continue;
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:error|warn|note|add)\(\s*(?:'(?:error|warning|note)',\s*)?'([a-z]+\/[a-z0-9-]+)'|'([a-z]+\/[a-z0-9-]+)' : '([a-z]+\/[a-z0-9-]+)'|code: '([a-z]+\/[a-z0-9-]+)'|\?\? '([a-z]+\/[a-z0-9-]+)'/g)) {
      for (const c of m.slice(1)) if (c) emitted.add(c);
    }
  }

  it('every code the readers emit is registered, and every registered code is emitted', () => {
    const registered = Object.keys(DIAGNOSTIC_CODES);
    expect([...emitted].filter((c) => !registered.includes(c)).sort()).toEqual([]);
    expect(registered.filter((c) => !emitted.has(c)).sort()).toEqual([]);
    expect(emitted.size).toBeGreaterThan(100);
  });

  it('each code is emitted with the severity it is registered with', () => {
    // version/not-semver is a warning, and an error for Rye where the seed requires semver
    const BOTH = new Set(['version/not-semver']);
    const wrong: string[] = [];
    for (const f of sources(__dirname)) {
      if (f.endsWith('diagnostic-codes.ts')) continue;
      for (const m of readFileSync(f, 'utf8').matchAll(/\.(error|warn|note)\(\s*'([a-z]+\/[a-z0-9-]+)'/g)) {
        const registered = DIAGNOSTIC_CODES[m[2] as keyof typeof DIAGNOSTIC_CODES]?.severity;
        const used = m[1] === 'warn' ? 'warning' : m[1] === 'note' ? 'note' : 'error';
        if (registered && registered !== used && !BOTH.has(m[2])) wrong.push(`${path.basename(f)}: ${m[2]} emitted as ${used}, registered as ${registered}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('docs/diagnostics.md lists every code with its severity', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/diagnostics.md'), 'utf8');
    for (const [code, e] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(doc, code).toMatch(new RegExp(`\\| \`${code.replace('/', '\\/')}\` \\| ${e.severity} \\|`));
    }
  });
});
