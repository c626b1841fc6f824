import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pathCollisions } from './path-collisions';
import { readUpload } from './read-upload';

const SKILL = strToU8('---\nname: notes\ndescription: Keeps notes.\nversion: 1.0.0\n---\nHello.\n');

describe('path collisions', () => {
  it('finds names equal by case or Unicode normalisation, and a file beside a folder of its name', () => {
    const nfc = 'caf\u00e9.md';
    const nfd = 'cafe\u0301.md';
    const found = pathCollisions(['SKILL.md', 'notes.md', 'NOTES.md', nfc, nfd, 'docs', 'Docs/a.md', 'ref/x.md', 'ref/y.md', 'Stra\u00dfe.md', 'STRASSE.md']);
    expect(found.map((d) => d.message.split(' are ')[0])).toEqual(['notes.md and NOTES.md', `${nfc} and ${nfd}`, 'docs and folder Docs/', 'Stra\u00dfe.md and STRASSE.md']);
    expect(found.every((d) => d.severity === 'error' && d.code === 'publish/path-collision')).toBe(true);
    expect(pathCollisions(['SKILL.md', 'a/b.md', 'a/c.md', 'A.md'])).toEqual([]);
  });

  it('refuses such an upload with an error that names both paths', () => {
    const pkg = readUpload({ kind: 'bytes', bytes: zipSync({ 'notes/SKILL.md': SKILL, 'notes/notes.md': strToU8('a'), 'notes/NOTES.md': strToU8('b') }), fileName: 'notes.zip' });
    const errors = pkg.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ code: 'publish/path-collision', message: expect.stringContaining('notes.md and NOTES.md') })]);
    const clean = readUpload({ kind: 'bytes', bytes: zipSync({ 'notes/SKILL.md': SKILL, 'notes/notes.md': strToU8('a') }), fileName: 'notes.zip' });
    expect(clean.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
