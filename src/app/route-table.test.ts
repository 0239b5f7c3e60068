import { describe, expect, it } from 'vitest';
import { APP_ROUTES, MENU_ORDER, appRouteFor } from './route-table.ts';

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
});
