import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import * as skills from './index';

describe('public API', () => {
  it('DEFAULT_LIMITS are the SPEC section 7 defaults', () => {
    expect(skills.DEFAULT_LIMITS).toMatchObject({
      maxDescriptionChars: 1024,
      maxInstructionsBytes: 256 * 1024,
      maxFileBytes: 1024 * 1024,
      maxPackageBytes: 50 * 1024 * 1024,
      maxPackageFiles: 2000,
      maxYamlAliasCount: 10_000,
      maxDepth: 64,
    });
    expect(Object.isFrozen(skills.DEFAULT_LIMITS)).toBe(true);
  });

  it('an uploaded archive goes through readArchive + readSkillsFromFiles (the publish path)', () => {
    const bytes = zipSync({
      'hello.skill.md': strToU8('---\nname: hello\ndescription: Says hello.\nmetadata:\n  params:\n    type: object\n    properties:\n      who: { type: string }\n---\nSay hello to {who}.\n'),
    });
    const arch = skills.readArchive(bytes);
    expect(arch.diagnostics).toEqual([]);
    const res = skills.readSkillsFromFiles(arch.files);
    expect(res.diagnostics).toEqual([]);
    const [m] = res.skills;
    expect(m).toMatchObject({ name: 'hello', format: 'skill-md', files: ['hello.skill.md'], diagnostics: [] });
    const validate = skills.compileToolSchema(m.tools[0].params!);
    expect(validate({ who: 'Ada' })).toBe(true);
    expect(validate({ who: 42 })).toBe(false);
  });

  it('exports the name, schema and signature helpers', () => {
    expect(skills.canonicalToolName('count_words')).toBe('count-words');
    expect(skills.isValidSkillName('count-words')).toBe(true);
    expect(typeof skills.resolveJsonSchema).toBe('function');
    const k = skills.generateSigningKey();
    const signed = skills.signText('x = 1\n', k.privateKeyPem);
    expect(skills.verifySignedText(signed.text, [k.publicKeyPem])?.verified).toBe(true);
    expect(Object.keys(skills.DIAGNOSTIC_CODES).length).toBeGreaterThan(100);
  });
});

describe('limits from the environment', () => {
  it('SKILLYARD_MAX_* sets a limit; anything but a positive integer is ignored', () => {
    expect(skills.LIMIT_ENV.maxPackageBytes).toBe('SKILLYARD_MAX_PACKAGE_BYTES');
    expect(skills.limitsFromEnv({ SKILLYARD_MAX_PACKAGE_BYTES: '1048576', SKILLYARD_MAX_PACKAGE_FILES: '-3', SKILLYARD_MAX_FILE_BYTES: 'lots' })).toEqual({ maxPackageBytes: 1048576 });
    expect(skills.resolveLimits({ maxPackageFiles: 0 }).maxPackageFiles).toBe(2000);
  });
});
