/**
 * Dashboard-style navigation (spec §2, §6): a click navigates only when the target is in the
 * user's permitted route list; otherwise the warning 暂无该权限！ shows and nothing happens.
 */
import { notifications } from '@mantine/notifications';
import { NO_PERMISSION_WARNING } from '../../domain/errors/catalogue.ts';
import { TOAST_MS } from '../api/http.ts';
import { currentLang } from '../i18n/index.ts';
import { currentAccess } from '../session/store.ts';
import { navigateHref } from './navigate.ts';

/** Navigates to `path` when permitted; returns whether it did. */
export function navigateIfPermitted(path: string): boolean {
  const routePath = path.split('?')[0] ?? path;
  if (!currentAccess().permittedRoutes().has(routePath)) {
    notifications.show({ color: 'yellow', message: NO_PERMISSION_WARNING[currentLang()], autoClose: TOAST_MS, withBorder: true });
    return false;
  }
  void navigateHref(path);
  return true;
}
