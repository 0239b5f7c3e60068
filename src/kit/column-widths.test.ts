import { describe, expect, it } from 'vitest';
import { widthFixes, widthsCustomised } from './column-widths.ts';

const bounds = new Map([['name', { min: 120, max: 240 }], ['__actions', { min: 160, max: 160 }]]);

describe('stored column widths', () => {
  it('are brought back within each column\'s bounds, and a dragged filler to 0 px', () => {
    expect(widthFixes([{ name: '50px' }, { __filler: '1800px' }, { __actions: '0px' }], bounds, ['__filler'])).toEqual([
      { accessor: 'name', width: '120px' },
      { accessor: '__filler', width: '0px' },
      { accessor: '__actions', width: '160px' },
    ]);
    expect(widthFixes([{ name: '400px' }], bounds)).toEqual([{ accessor: 'name', width: '240px' }]);
    expect(widthFixes([{ name: '180px' }, { name: 240 }, { __filler: 'auto' }, { __filler: '0px' }, { other: '5px' }], bounds, ['__filler'])).toEqual([]);
  });

  it('count as changed only where they differ from the columns\' own', () => {
    const columns = [{ accessor: 'name', width: 240 }, { accessor: '__filler' }];
    expect(widthsCustomised([{ name: 240 }, { __filler: 'auto' }], columns)).toBe(false);
    expect(widthsCustomised([{ name: '180px' }, { __filler: 'auto' }], columns)).toBe(true);
  });
});
