import { describe, expect, it } from 'vitest';
import { newTagOption, resolveTagSelection, sameTagSet, tagTextColor } from './tagSelection';

const vip = { id: 1, name: 'VIP', color: '#FFD700' };
const lead = { id: 2, name: 'Lead quente', color: '#0000FF' };
const known = [vip, lead];

describe('resolveTagSelection', () => {
  it('keeps known tags and adds new names without an id', () => {
    expect(resolveTagSelection([vip, 'Retorno'], known)).toEqual({
      ok: true,
      tags: [{ id: 1, name: 'VIP', color: '#FFD700' }, { name: 'Retorno' }],
    });
  });
  it('rejects a new name under 3 characters (Tag muito curta!)', () => {
    expect(resolveTagSelection([vip, 'ab'], known)).toEqual({ ok: false, tooShort: 'ab' });
    expect(resolveTagSelection([{ newName: ' x ' }], known)).toEqual({ ok: false, tooShort: 'x' });
  });
  it('accepts a new name of exactly 3 characters, trimmed', () => {
    expect(resolveTagSelection(['  abc  '], known)).toEqual({ ok: true, tags: [{ name: 'abc' }] });
  });
  it('turns a typed name of a known tag into that tag, whatever its case', () => {
    expect(resolveTagSelection(['lead QUENTE'], known)).toEqual({ ok: true, tags: [lead] });
    // A short name that is an existing tag is not "new", so not too short.
    expect(resolveTagSelection(['vip'], known)).toEqual({ ok: true, tags: [vip] });
  });
  it('drops duplicates and blank names', () => {
    expect(resolveTagSelection([vip, 'VIP', { newName: 'Novo' }, 'novo', '   '], known)).toEqual({
      ok: true,
      tags: [vip, { name: 'Novo' }],
    });
  });
  it('gives an empty list when every tag is removed', () => {
    expect(resolveTagSelection([], known)).toEqual({ ok: true, tags: [] });
  });
});

describe('newTagOption', () => {
  it('offers to create a name no tag has', () => {
    expect(newTagOption(' Retorno ', known)).toEqual({ newName: 'Retorno' });
  });
  it('offers nothing for an empty input or an existing name', () => {
    expect(newTagOption('  ', known)).toBeNull();
    expect(newTagOption('vip', known)).toBeNull();
  });
});

describe('tagTextColor', () => {
  it('picks dark text on light colours and white on dark ones', () => {
    expect(tagTextColor('#FFD700')).toBe('#000');
    expect(tagTextColor('#0000FF')).toBe('#fff');
    expect(tagTextColor('not a colour')).toBe('#fff');
  });
});

describe('sameTagSet', () => {
  it('is true for the same tags in any order', () => {
    expect(sameTagSet([lead, vip], [vip, lead])).toBe(true);
  });
  it('is false when a tag was added, removed or is new', () => {
    expect(sameTagSet([vip], [vip, lead])).toBe(false);
    expect(sameTagSet([vip, lead], [vip])).toBe(false);
    expect(sameTagSet([vip, { name: 'Novo' }], [vip, lead])).toBe(false);
  });
});
