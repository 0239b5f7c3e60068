import { describe, expect, it } from 'vitest';
import { companyNodeId, formatNodeId, parseNodeId, selectedCompanyId, toggleChecked } from './tree-node.ts';

describe('tree node ids', () => {
  it.each([
    ['C_12', 'C', 12],
    ['V_345', 'V', 345],
    ['L_7', 'L', 7],
  ] as const)('reads %s as type %s with id %i and writes it back', (text, nodeType, id) => {
    expect(parseNodeId(text)).toEqual({ nodeType, id });
    expect(formatNodeId(nodeType, id)).toBe(text);
  });

  it.each(['12', 'X_12', 'C_', 'C_0', 'C_-3', 'C_1.5', 'c_12', 'C_12 ', 'C_012', 'C_99999999999999999999'])(
    'rejects %j',
    (text) => {
      expect(parseNodeId(text)).toBeUndefined();
    },
  );

  it('refuses to format an id that could not be read back', () => {
    expect(() => formatNodeId('C', 0)).toThrow(RangeError);
    expect(() => formatNodeId('V', 2.5)).toThrow(RangeError);
    expect(companyNodeId(1)).toBe('C_1');
  });
});

describe('the company a click selects (spec §2)', () => {
  it('a company node selects that company', () => {
    expect(selectedCompanyId({ id: 'C_12', nodeType: 'C' }, 1)).toBe(12);
  });

  it('a vehicle or a line selects the root company of the tree', () => {
    expect(selectedCompanyId({ id: 'V_345', nodeType: 'V' }, 1)).toBe(1);
    expect(selectedCompanyId({ id: 'L_7', nodeType: 'L' }, 4)).toBe(4);
  });

  it('a company node with a malformed id is an error, not a silent root selection', () => {
    expect(() => selectedCompanyId({ id: 'V_3', nodeType: 'C' }, 1)).toThrow(RangeError);
  });
});

describe('checking nodes with a limit (spec §5: at most 500 at once)', () => {
  it('adds and removes a node', () => {
    const one = toggleChecked(new Set(), 'V_1', 500);
    expect([...one.checked]).toEqual(['V_1']);
    expect(one.refused).toBe(false);
    expect(toggleChecked(one.checked, 'V_1', 500).checked.size).toBe(0);
  });

  it('refuses the check past the limit and keeps the previous selection', () => {
    const full = new Set(['V_1', 'V_2']);
    const r = toggleChecked(full, 'V_3', 2);
    expect(r.refused).toBe(true);
    expect(r.checked).toBe(full);
    expect(toggleChecked(full, 'V_2', 2)).toMatchObject({ refused: false });
  });
});
