import { describe, expect, it } from 'vitest';
import { Access, buttonShows, entryByKey, globalAreaShows } from './access.ts';
import { masksFromIds } from './bits.ts';
import { PERMISSION_REGISTRY } from './registry.ts';

const id = (key: string) => {
  const e = entryByKey(key);
  if (!e) throw new Error(`no registry entry ${key}`);
  return e.id;
};

describe('the permission registry', () => {
  it('has unique ids and keys, and every parent exists', () => {
    const ids = new Set(PERMISSION_REGISTRY.map((e) => e.id));
    const keys = new Set(PERMISSION_REGISTRY.map((e) => e.key));
    expect(ids.size).toBe(PERMISSION_REGISTRY.length);
    expect(keys.size).toBe(PERMISSION_REGISTRY.length);
    for (const e of PERMISSION_REGISTRY) if (e.pid) expect(ids.has(e.pid)).toBe(true);
  });

  it('lists the buttons the spec names on each page', () => {
    for (const b of ['delete', 'update', 'create', 'retrieve', 'video']) expect(entryByKey(`/system/user:${b}`)?.type).toBe(2);
    for (const b of ['confirm', 'deal']) expect(entryByKey(`/safeManagement/alarmProcessingPage:${b}`)).toBeDefined();
    expect(entryByKey('/global/rightMenu:menu808')).toBeDefined();
    expect(PERMISSION_REGISTRY.filter((e) => e.pid === id('/global/alarm'))).toHaveLength(11);
  });
});

describe('route and button access', () => {
  it('an administrator sees every route without any mask', () => {
    const admin = new Access({ userLevel: 0, permissions: [] });
    expect(admin.canSeeRoute('/system/role')).toBe(true);
    expect(admin.hasButton('/system/user', 'delete')).toBe(true);
  });

  it('an operator sees a route only when its bit and its group bit are set', () => {
    const op = new Access({ userLevel: 2, permissions: masksFromIds([id('/monitor'), id('/monitor/index')]) });
    expect(op.canSeeRoute('/monitor/index')).toBe(true);
    expect(op.canSeeRoute('/monitor/videoMonitor')).toBe(false);
    expect(op.canSeeRoute('/system/user')).toBe(false);
    const orphan = new Access({ userLevel: 2, permissions: masksFromIds([id('/system/user')]) });
    expect(orphan.canSeeRoute('/system/user')).toBe(false);
  });

  it('a route without a permission record shows', () => {
    const op = new Access({ userLevel: 2, permissions: [] });
    expect(op.canSeeRoute('/some/unregistered/page')).toBe(true);
  });

  it('applies the three button behaviours', () => {
    const granted = masksFromIds([id('/system'), id('/system/user'), id('/system/user:update')]);
    const op = new Access({ userLevel: 2, permissions: granted });
    expect(buttonShows(op, '/system/user', 'update', 'removeIfMissing')).toBe(true);
    expect(buttonShows(op, '/system/user', 'delete', 'removeIfMissing')).toBe(false);
    expect(buttonShows(op, '/system/user', 'update', 'removeIfSet')).toBe(false);
    expect(buttonShows(op, '/system/user', 'delete', 'removeIfSet')).toBe(true);
  });

  it('removes the alarm pop-up when no global alarm right is granted', () => {
    const none = new Access({ userLevel: 2, permissions: [] });
    expect(globalAreaShows(none, '/global/alarm')).toBe(false);
    const one = new Access({ userLevel: 2, permissions: masksFromIds([id('/global/alarm:live')]) });
    expect(globalAreaShows(one, '/global/alarm')).toBe(true);
    expect(globalAreaShows(one, '/global/rightMenu')).toBe(false);
  });

  it('lists the permitted routes for navigation checks', () => {
    const op = new Access({ userLevel: 2, permissions: masksFromIds([id('/report'), id('/report/temperatureReport')]) });
    const routes = op.permittedRoutes();
    expect(routes.has('/report/temperatureReport')).toBe(true);
    expect(routes.has('/information/vehicle')).toBe(false);
  });
});
