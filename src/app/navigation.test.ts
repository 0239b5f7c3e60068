import { beforeEach, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { session, setUser } from '../session/store.ts';

const navigateHref = vi.fn(() => Promise.resolve());
const show = vi.fn();
vi.mock('./navigate.ts', () => ({ navigateHref }));
vi.mock('@mantine/notifications', () => ({ notifications: { show } }));

const { navigateIfPermitted } = await import('./navigation.ts');
const id = (key: string) => entryByKey(key)?.id ?? 0;

describe('dashboard navigation checks (spec §6)', () => {
  beforeEach(() => {
    navigateHref.mockClear();
    show.mockClear();
    setUser({
      id: 5, username: 'operator', realName: null, userLevel: 2, companyId: 1, geoInverse: false,
      permissions: masksFromIds([id('/information'), id('/information/vehicle')]),
    });
  });

  it('navigates to a permitted target', () => {
    expect(navigateIfPermitted('/information/vehicle')).toBe(true);
    expect(navigateHref).toHaveBeenCalledWith('/information/vehicle');
    expect(show).not.toHaveBeenCalled();
  });

  it('warns 暂无该权限！ and stays put when the target is not permitted', () => {
    expect(navigateIfPermitted('/safeManagement/alarmProcessingPage')).toBe(false);
    expect(navigateHref).not.toHaveBeenCalled();
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: '暂无该权限！' }));
  });

  it('lets an administrator go anywhere', () => {
    session.user = { ...session.user!, userLevel: 0, permissions: [] };
    expect(navigateIfPermitted('/safeManagement/alarmProcessingPage')).toBe(true);
  });
});
