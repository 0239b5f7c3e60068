import { describe, expect, it } from 'vitest';
import { Access, entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { rootTargetFor } from '../../domain/session/root.ts';
import { APP_ROUTES, MENU_ORDER, appRouteFor, isBuiltRoute } from './route-table.ts';

describe('the page routes', () => {
  it('has a route for every page of the registry and none for groups', () => {
    expect(appRouteFor('/system/user')).toBeDefined();
    expect(appRouteFor('/safeManagement/alarmSettings/index')).toBeDefined();
    expect(appRouteFor('/system')).toBeUndefined();
    expect(appRouteFor('/safeManagement/alarmSettings')).toBeUndefined();
  });

  it('gives /global no page, as it only holds permissions', () => {
    expect(APP_ROUTES.some((r) => r.path.startsWith('/global'))).toBe(false);
  });

  it('marks large screens standalone and the risk-control entry external', () => {
    expect(appRouteFor('/largeScreen/overallMonitoring')?.flags).toContain('standalone');
    expect(appRouteFor('/operationSystem/riskControl')?.flags).toContain('external');
  });

  it('orders pages by menu group for the root fallback', () => {
    expect(MENU_ORDER[0]).toBe('/home/index');
    expect(MENU_ORDER).not.toContain('/largeScreen/overallMonitoring');
  });

  it('has unique paths', () => {
    expect(new Set(APP_ROUTES.map((r) => r.path)).size).toBe(APP_ROUTES.length);
  });

  it('knows which pages are built: a page file exists for the route', () => {
    expect(isBuiltRoute('/monitor/index')).toBe(true);
    expect(isBuiltRoute('/home/index')).toBe(true);
    expect(isBuiltRoute('/cel/approvalQuery')).toBe(false);
    expect(isBuiltRoute('/largeScreen/overallMonitoring')).toBe(true);
    expect(isBuiltRoute('/countrysideMonitor/countrysideScreenThingjs')).toBe(false);
  });
});

describe('where / lands after sign-in (main variant, the real registry and pages)', () => {
  const id = (key: string) => entryByKey(key)?.id ?? 0;
  const land = (access: Access) => rootTargetFor('main', (p) => access.canSeeRoute(p), MENU_ORDER, isBuiltRoute);

  it('lands the administrator on the dashboard, the main variant’s root', () => {
    expect(land(new Access({ userLevel: 0, permissions: [] }))).toBe('/home/index');
  });

  it('lands a user without the dashboard on the first built page they may see', () => {
    const keys = ['/monitor', '/monitor/index', '/system', '/system/role'];
    expect(land(new Access({ userLevel: 2, permissions: masksFromIds(keys.map(id)) }))).toBe('/monitor/index');
  });

  it('skips unbuilt pages the user may see and takes the first built one', () => {
    const keys = ['/cel', '/cel/approvalQuery', '/monitor', '/monitor/lineMonitor', '/system', '/system/role'];
    expect(land(new Access({ userLevel: 2, permissions: masksFromIds(keys.map(id)) }))).toBe('/system/role');
  });

  it('answers null for a user who may see only unbuilt pages', () => {
    const keys = ['/cel', '/cel/approvalQuery'];
    expect(land(new Access({ userLevel: 2, permissions: masksFromIds(keys.map(id)) }))).toBeNull();
  });
});
