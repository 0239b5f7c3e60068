import { describe, expect, it } from 'vitest';
import { PermissionTree, slotBitLabel, type PermissionLike } from './permission-tree.ts';

const rec = (id: number, pid: number, type: 1 | 2, name: string, routeKey: string, sort = 0): PermissionLike => ({ id, pid, type, name, routeKey, sort });

// /system (1) > /system/user (2) > delete (3), update (4); /system/role (5); /monitor (6)
const records = [
  rec(6, 0, 1, '监控中心', '/monitor', 0),
  rec(1, 0, 1, '系统管理', '/system', 1),
  rec(2, 1, 1, '用户管理', '/system/user'),
  rec(3, 2, 2, '删除', '/system/user:delete'),
  rec(4, 2, 2, '修改', '/system/user:update'),
  rec(5, 1, 1, '角色管理', '/system/role'),
];

describe('the permission tree', () => {
  it('groups records by pid, ordered by sort then id', () => {
    const tree = new PermissionTree(records);
    expect(tree.roots.map((n) => n.record.id)).toEqual([6, 1]);
    expect(tree.node(1)?.children.map((n) => n.record.id)).toEqual([2, 5]);
    expect(tree.allIds()).toEqual([6, 1, 2, 3, 4, 5]);
  });

  it('keeps a record whose parent is missing, under the root', () => {
    const tree = new PermissionTree([...records, rec(9, 99, 1, '孤儿', '/orphan')]);
    expect(tree.roots.map((n) => n.record.id)).toContain(9);
  });

  it('granting a button grants its page and group too', () => {
    const tree = new PermissionTree(records);
    expect([...tree.setGranted(new Set(), 3, true)].sort()).toEqual([1, 2, 3]);
  });

  it('granting a page grants all its buttons; revoking it revokes them and keeps the group', () => {
    const tree = new PermissionTree(records);
    const on = tree.setGranted(new Set(), 2, true);
    expect([...on].sort()).toEqual([1, 2, 3, 4]);
    expect([...tree.setGranted(on, 2, false)]).toEqual([1]);
  });

  it('the root checks and clears everything', () => {
    const tree = new PermissionTree(records);
    const all = tree.setGranted(new Set(), 0, true);
    expect(all.size).toBe(6);
    expect(tree.state(all, 0)).toBe('checked');
    expect(tree.setGranted(all, 0, false).size).toBe(0);
  });

  it('shows a partly granted subtree as indeterminate', () => {
    const tree = new PermissionTree(records);
    const g = tree.setGranted(new Set(), 3, true);
    expect(tree.state(g, 2)).toBe('indeterminate');
    expect(tree.state(g, 3)).toBe('checked');
    expect(tree.state(g, 5)).toBe('unchecked');
  });

  it('search keeps the hits and their ancestors, by name or route key', () => {
    const tree = new PermissionTree(records);
    expect([...(tree.matching('删除') ?? [])].sort()).toEqual([1, 2, 3]);
    expect([...(tree.matching('/SYSTEM/ROLE') ?? [])].sort()).toEqual([1, 5]);
    expect(tree.matching('  ')).toBeUndefined();
  });
});

describe('slot and bit labels', () => {
  it.each([
    [1, '1:1<<1'],
    [30, '1:1<<0'],
    [31, '2:1<<1'],
    [304, '11:1<<4'],
  ])('id %i is %s', (id, label) => expect(slotBitLabel(id)).toBe(label));
});
