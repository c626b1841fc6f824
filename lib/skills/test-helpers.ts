// Shared by the *.test.ts files: build an in-memory tree and read it.
import { readSkillsFromFiles, type ReadOptions, type ReadResult } from './read';
import type { Diagnostic, SkillManifest } from './types';

const enc = new TextEncoder();

export function tree(files: Record<string, string | Uint8Array>): { path: string; content: Uint8Array }[] {
  return Object.entries(files).map(([path, c]) => ({ path, content: typeof c === 'string' ? enc.encode(c) : c }));
}

export function read(files: Record<string, string | Uint8Array>, opts?: ReadOptions): ReadResult {
  return readSkillsFromFiles(tree(files), opts);
}

/** The single skill of a tree (fails the test when there is not exactly one). */
export function one(files: Record<string, string | Uint8Array>, opts?: ReadOptions): SkillManifest {
  const r = read(files, opts);
  if (r.skills.length !== 1) throw new Error(`expected one skill, got ${r.skills.length}: ${JSON.stringify(r.diagnostics)}`);
  return r.skills[0];
}

export function codes(x: { diagnostics: Diagnostic[] }): string[] {
  return x.diagnostics.map((d) => d.code);
}

export function find(x: { diagnostics: Diagnostic[] }, code: string): Diagnostic | undefined {
  return x.diagnostics.find((d) => d.code === code);
}

export const skillMd = (fm: string, body = 'Do the thing.') => `---\n${fm.trim()}\n---\n\n${body}\n`;
