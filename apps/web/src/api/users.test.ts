import { describe, expect, it } from 'vitest';
import { avatarUrl, userMatches } from './users';

describe('users helpers', () => {
  it('matches the lowercased search on name or e-mail', () => {
    const user = { name: 'Maria Souza', email: 'maria@empresa.com' };
    expect(userMatches(user, '')).toBe(true);
    expect(userMatches(user, 'souza')).toBe(true);
    expect(userMatches(user, 'EMPRESA')).toBe(true);
    expect(userMatches(user, 'joão')).toBe(false);
  });
  it("serves an avatar from the company's public folder", () => {
    expect(avatarUrl({ companyId: 3, profileImage: 'avatar-ab.jpg' })).toMatch(/\/public\/company3\/avatar-ab\.jpg$/);
    expect(avatarUrl({ companyId: 3, profileImage: null })).toBeUndefined();
  });
});
