import { describe, expect, it } from 'vitest';
import { buildQuery, withQuery } from './query.ts';

describe('query strings', () => {
  it('sends arrays as repeated parameters', () => {
    expect(buildQuery({ ids: [1, 2, 3] })).toBe('ids=1&ids=2&ids=3');
  });

  it('leaves out undefined and null values, also inside arrays', () => {
    expect(buildQuery({ a: undefined, b: null, c: 0, d: false, ids: [1, null, 2] })).toBe('c=0&d=false&ids=1&ids=2');
  });

  it('encodes keys and values', () => {
    expect(buildQuery({ keyword: '总公司 & 分公司' })).toBe('keyword=%E6%80%BB%E5%85%AC%E5%8F%B8%20%26%20%E5%88%86%E5%85%AC%E5%8F%B8');
  });

  it('sends dates as epoch milliseconds', () => {
    expect(buildQuery({ from: new Date(Date.UTC(2024, 0, 1)) })).toBe('from=1704067200000');
  });

  it('sends an empty array as nothing', () => {
    expect(buildQuery({ ids: [] })).toBe('');
  });

  it('appends to a URL with or without a query', () => {
    expect(withQuery('/service-priv/user', { ids: [4, 5] })).toBe('/service-priv/user?ids=4&ids=5');
    expect(withQuery('/a?x=1', { y: 2 })).toBe('/a?x=1&y=2');
    expect(withQuery('/a', {})).toBe('/a');
  });
});
