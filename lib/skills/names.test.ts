import { describe, expect, it } from 'vitest';
import { canonicalToolName, isSemver, isValidSkillName, isValidToolName, nameFromPath, normalizeTag, normalizeTags } from './names';

describe('names', () => {
  it('canonical tool names turn underscores into hyphens', () => {
    expect(canonicalToolName('count_words')).toBe('count-words');
    expect(canonicalToolName('Deploy_Service')).toBe('deploy-service');
    expect(isValidToolName(canonicalToolName('a__b'))).toBe(true);
    expect(isValidToolName(canonicalToolName('has space'))).toBe(false);
    expect(isValidToolName('-leading')).toBe(false);
  });
  it('skill names follow the Agent Skills rule', () => {
    expect(isValidSkillName('text-stats')).toBe(true);
    expect(isValidSkillName('a')).toBe(true);
    expect(isValidSkillName('a'.repeat(64))).toBe(true);
    expect(isValidSkillName('a'.repeat(65))).toBe(false);
    for (const bad of ['', 'Text', 'a--b', '-a', 'a-', 'a_b', 'a b', 'Ä', 'ñ-', 'daten.analyse']) expect(isValidSkillName(bad), bad).toBe(false);
  });
  it('skill names in lowercase letters of any script are valid, as the Agent Skills reference validator allows', () => {
    for (const good of ['ä', 'ação-rápida', '数据-分析', 'проверка', 'ｄａｔａ']) expect(isValidSkillName(good), good).toBe(true);
    expect(isValidSkillName('é'.repeat(64))).toBe(true);
    expect(isValidSkillName('é'.repeat(65))).toBe(false);
    expect(isValidSkillName('ΑΒΓ')).toBe(false); // uppercase Greek
  });
  it('tags are lowercase-with-hyphens, deduplicated', () => {
    expect(normalizeTag('Data Science')).toBe('data-science');
    expect(normalizeTag('  C++ / Rust ')).toBe('c++-rust');
    expect(normalizeTags(['JSON', 'json', 'Web_API', '   '])).toEqual(['json', 'web-api']);
  });
  it('non-ASCII tags are kept, normalised; distinct tags stay distinct; an empty one is reported', () => {
    expect(normalizeTags(['Données', 'Análisis de datos', '数据分析', 'ＡＩ', 'Привет мир'])).toEqual(['données', 'análisis-de-datos', '数据分析', 'ai', 'привет-мир']);
    expect(normalizeTags(['C++', 'C#', 'C'])).toEqual(['c++', 'c#', 'c']);
    const dropped: string[] = [];
    expect(normalizeTags(['ok', '!!!', '  '], (t) => dropped.push(t))).toEqual(['ok']);
    expect(dropped).toEqual(['!!!']);
  });
  it('semver', () => {
    expect(isSemver('1.0.0')).toBe(true);
    expect(isSemver('1.0.0-beta.1+build.5')).toBe(true);
    expect(isSemver('1.0')).toBe(false);
    expect(isSemver('01.0.0')).toBe(false);
  });
  it('names from paths', () => {
    expect(nameFromPath('My Tool.skill.md')).toBe('my-tool');
    expect(nameFromPath('___')).toBe('unnamed');
  });
});
