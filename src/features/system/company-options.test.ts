import { describe, expect, it } from 'vitest';
import { companiesInTreeOrder, companyOptions, subtreeOf } from './company-options.tsx';
import type { CompanyOption } from './types.ts';

const c = (id: number, pid: number, name: string): CompanyOption => ({ id, pid, name, childCount: 0, vehicleCount: 0 });
const list = [c(3, 1, 'B fleet'), c(1, 0, 'Root'), c(2, 1, 'A branch'), c(4, 2, 'A1 fleet'), c(9, 77, 'Detached')];

describe('company pickers', () => {
  it('list parents before children, siblings by name, with depth', () => {
    expect(companiesInTreeOrder(list).map(({ company, depth }) => `${depth}:${company.id}`)).toEqual(['0:9', '0:1', '1:2', '2:4', '1:3']);
  });

  it('carry the depth and can leave out a subtree', () => {
    const opts = companyOptions(list, subtreeOf(list, 2));
    expect(opts.map((o) => o.value)).toEqual(['9', '1', '3']);
    expect(opts[2]).toEqual({ value: '3', label: 'B fleet', depth: 1 });
  });

  it('find a company’s whole subtree', () => {
    expect([...subtreeOf(list, 1)].sort()).toEqual([1, 2, 3, 4]);
    expect([...subtreeOf(list, 4)]).toEqual([4]);
  });
});
