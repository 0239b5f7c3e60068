/**
 * Opening a menu entry: a normal page navigates inside the shell; a standalone page (large
 * screens) opens in a blank window without the shell; an external entry opens the configured
 * address (VITE_RISK_CONTROL_URL) or, when none is configured, says so.
 */
import { modals } from '@mantine/modals';
import { createElement } from 'react';
import type { RouteFlag } from '../../domain/permissions/registry.ts';
import { BASEPATH, navigateHref } from '../app/navigate.ts';
import { translate } from '../i18n/index.ts';

export const EXTERNAL_URL: string = import.meta.env.VITE_RISK_CONTROL_URL ?? '';

export function hrefOf(path: string, flags: readonly RouteFlag[]): string {
  if (flags.includes('external')) return EXTERNAL_URL || '#';
  return BASEPATH + path;
}

export function openRoute(path: string, flags: readonly RouteFlag[]): void {
  if (flags.includes('external')) {
    if (EXTERNAL_URL) {
      window.open(EXTERNAL_URL, '_blank', 'noopener');
    } else {
      modals.open({
        title: translate('shell.externalTitle'),
        children: createElement('p', { 'data-testid': 'external-not-configured' }, translate('shell.externalNotConfigured')),
      });
    }
    return;
  }
  if (flags.includes('standalone')) {
    window.open(BASEPATH + path, '_blank', 'noopener');
    return;
  }
  void navigateHref(path);
}
