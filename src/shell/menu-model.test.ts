import { describe, expect, it } from 'vitest';
import { Access, entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { buildMenu, menuLeaves } from './menu-model.ts';

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

  it('keeps screens that are not built in the menu, marked, and marks none that are built or external', () => {
    const admin = new Access({ userLevel: 0, permissions: [] });
    const leaves = menuLeaves(buildMenu((p) => admin.canSeeRoute(p)));
    const byKey = new Map(leaves.map((n) => [n.entry.key, n]));
    // visible, not hidden: operators see what is coming
    expect(byKey.get('/home/index')?.notBuilt).toBe(false);
    expect(byKey.get('/cel/approvalQuery')?.notBuilt).toBe(true);
    expect(byKey.get('/information/params/adasParam')?.notBuilt).toBe(false);
    expect(byKey.get('/information/params/dsmParam')?.notBuilt).toBe(false);
    expect(byKey.get('/largeScreen/overallMonitoring')?.notBuilt).toBe(false);
    expect(byKey.get('/countrysideMonitor/countrysideScreenThingjs')?.notBuilt).toBe(true);
    expect(byKey.get('/monitor/index')?.notBuilt).toBe(false);
    expect(byKey.get('/system/user')?.notBuilt).toBe(false);
    expect(byKey.get('/operationSystem/riskControl')?.notBuilt).toBe(false);
    // a group of only unbuilt screens is marked, a group with one built screen is not
    const groups = new Map(buildMenu((p) => admin.canSeeRoute(p)).map((n) => [n.entry.key, n]));
    expect(groups.get('/countrysideMonitor')?.notBuilt).toBe(true);
    expect(groups.get('/largeScreen')?.notBuilt).toBe(false);
    expect(groups.get('/information')?.notBuilt).toBe(false);
  });
});
