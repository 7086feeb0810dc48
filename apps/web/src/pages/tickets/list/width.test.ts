import { describe, expect, it } from 'vitest';
import { LIST_DEFAULT_WIDTH, clampListWidth } from './width';

describe('clampListWidth (spec 2 §9: 404 to 700 px)', () => {
  it('keeps a width inside the bounds', () => {
    expect(clampListWidth(300)).toBe(404);
    expect(clampListWidth(404)).toBe(404);
    expect(clampListWidth(550.4)).toBe(550);
    expect(clampListWidth(700)).toBe(700);
    expect(clampListWidth(1200)).toBe(700);
  });

  it('falls back to the default when the user never chose one', () => {
    expect(clampListWidth(null)).toBe(LIST_DEFAULT_WIDTH);
    expect(clampListWidth(Number.NaN)).toBe(LIST_DEFAULT_WIDTH);
  });
});
