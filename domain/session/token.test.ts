import { describe, expect, it } from 'vitest';
import { nextToken, tokenChanged } from './token.ts';

describe('token replacement (spec §4)', () => {
  it('replaces the stored token with the jwt answer header', () => {
    expect(nextToken('old', 'new')).toBe('new');
    expect(tokenChanged('old', 'new')).toBe(true);
  });

  it('keeps the token when the header is missing or blank', () => {
    expect(nextToken('old', null)).toBe('old');
    expect(nextToken('old', undefined)).toBe('old');
    expect(nextToken('old', '  ')).toBe('old');
    expect(tokenChanged('old', '')).toBe(false);
  });

  it('stores a token from a header when none was stored', () => {
    expect(nextToken(null, 'fresh')).toBe('fresh');
  });

  it('does not count the same token as a change', () => {
    expect(tokenChanged('same', 'same')).toBe(false);
  });
});
