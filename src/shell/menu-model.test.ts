import { describe, expect, it } from 'vitest';
import { Access, entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { buildMenu } from './menu-model.ts';

const id = (key: string) => entryByKey(key)?.id ?? 0;
const keys = (nodes: ReturnType<typeof buildMenu>): string[] => nodes.flatMap((n) => [n.entry.key, ...keys(n.children as ReturnType<typeof buildMenu>)]);

describe('the side navigation', () => {
  it('shows an administrator every group in menu order, without /global', () => {
    const admin = new Access({ userLevel: 0, permissions: [] });
    const menu = buildMenu((p) => admin.canSeeRoute(p));
    const top = menu.map((n) => n.entry.key);
    expect(top.slice(0, 3)).toEqual(['/home', '/monitor', '/safeManagement']);
    expect(top).not.toContain('/global');
    expect(top.indexOf('/system')).toBeLessThan(top.indexOf('/largeScreen'));
  });

  it('shows an operator only the permitted entries', () => {
    const op = new Access({ userLevel: 2, permissions: masksFromIds([id('/monitor'), id('/monitor/index'), id('/system'), id('/system/user')]) });
    const all = keys(buildMenu((p) => op.canSeeRoute(p)));
    expect(all).toEqual(['/monitor', '/monitor/index', '/system', '/system/user']);
  });

  it('hides a group whose pages are all hidden', () => {
    const op = new Access({ userLevel: 2, permissions: masksFromIds([id('/report')]) });
    expect(buildMenu((p) => op.canSeeRoute(p))).toEqual([]);
  });
});
