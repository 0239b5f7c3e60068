import { describe, expect, it } from 'vitest';
import { recordsOfPrivTree } from './priv-tree.ts';

describe('the privilege tree answer', () => {
  it('flattens to records whose parent is the node they hang under, keeping order', () => {
    const records = recordsOfPrivTree({
      id: 0,
      name: '全部权限',
      children: [
        { id: 101, name: '系统管理', type: 1, routeKey: '/system', children: [{ id: 102, name: '删除', type: 2, routeKey: '/system:delete', pid: 999 }] },
        { id: 3, name: '监控', type: 1, routeKey: '/monitor' },
      ],
    });
    expect(records.map((r) => [r.id, r.pid, r.type, r.sort])).toEqual([
      [101, 0, 1, 0],
      [102, 101, 2, 0],
      [3, 0, 1, 1],
    ]);
    expect(records[1]).toMatchObject({ offset: 4, permissions: 1 << 12 });
  });
});
