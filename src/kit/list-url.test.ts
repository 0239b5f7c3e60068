import { describe, expect, it } from 'vitest';
import { readListSearch, writeListSearch } from './list-url.ts';

describe('a list in the URL', () => {
  it('reads page, size and keyword, and drops what is not valid without complaint', () => {
    expect(readListSearch('?page=3&size=50&q=%E4%BA%ACA')).toEqual({ current: 3, size: 50, keyword: '京A' });
    expect(readListSearch('?page=0&size=33&q=%20%20')).toEqual({});
    expect(readListSearch('?page=-2&size=abc')).toEqual({});
    expect(readListSearch('?page=2.5&size=1e2')).toEqual({});
    expect(readListSearch('?page=9999999')).toEqual({});
    expect(readListSearch(`?q=${'x'.repeat(300)}`).keyword).toHaveLength(100);
    expect(readListSearch('')).toEqual({});
  });

  it('writes only what differs from the defaults and keeps the other params', () => {
    expect(writeListSearch('', { current: 1, size: 20, keyword: '' })).toBe('');
    expect(writeListSearch('?tab=a&page=4', { current: 2, size: 50, keyword: '京A 1' })).toBe('?tab=a&page=2&size=50&q=%E4%BA%ACA+1');
    expect(writeListSearch('?page=4&q=x', { current: 1, size: 20, keyword: '' })).toBe('');
  });
});
