/**
 * The terminal registration lines of the vehicle card (issue 12 §2): registered or not, refused
 * re-registrations (someone sent 0x0100 for this registered terminal: a hijack attempt or a terminal
 * that lost its code), and, for users with device management, a reset that lets the terminal register
 * again (after a confirmation).
 */
import { useCallback, useEffect, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { TerminalRegistrationView } from '../../../domain/vehicle/registration.ts';
import { http } from '../../api/http.ts';
import { registerMessages, useT } from '../../i18n/index.ts';
import { useAccess } from '../../session/store.ts';

const NS = 'terminalRegistration';
/** The permission the reset call declares (server/gateway/registration-routes.ts). */
const RESET_ROUTE = '/information/device';

registerMessages(NS, {
  zh: {
    registration: '终端注册',
    registered: '已注册',
    unregistered: '未注册',
    byTerminal: '未注册（终端已注销）',
    byOperator: '未注册（已重置，等待终端重新注册）',
    refused: '拒绝重复注册',
    refusedDetail: '{{count}} 次，最近 {{time}}，来自 {{address}}',
    reset: '重置注册',
    resetTitle: '重置终端注册',
    resetConfirm: '重置后终端 {{deviceNo}} 的鉴权码作废，当前连接将断开，终端须重新注册。仅在更换或重装终端时使用。确定重置吗？',
    confirm: '重置',
    cancel: '取消',
    resetDone: '已重置，等待终端重新注册',
    loadFailed: '注册状态加载失败',
  },
  en: {
    registration: 'Terminal registration',
    registered: 'Registered',
    unregistered: 'Not registered',
    byTerminal: 'Not registered (the terminal unregistered)',
    byOperator: 'Not registered (reset; waiting for the terminal to register)',
    refused: 'Refused re-registrations',
    refusedDetail: '{{count}}, last {{time}} from {{address}}',
    reset: 'Reset registration',
    resetTitle: 'Reset the terminal registration',
    resetConfirm: 'The auth code of terminal {{deviceNo}} becomes void, its connection is closed and it must register again. Use this only when the terminal was replaced or reinstalled. Reset it?',
    confirm: 'Reset',
    cancel: 'Cancel',
    resetDone: 'Reset: waiting for the terminal to register',
    loadFailed: 'The registration state failed to load',
  },
});

export function fetchRegistration(vehicleId: number, signal?: AbortSignal): Promise<TerminalRegistrationView> {
  return http.get<TerminalRegistrationView>('/service-priv/device/registration', { vehicleId }, { signal, noCompanyId: true, silent: true });
}

export function resetRegistration(vehicleId: number): Promise<TerminalRegistrationView> {
  return http.post<TerminalRegistrationView>('/service-priv/device/resetRegistration', { vehicleId }, { noCompanyId: true });
}

function line(label: string, value: string, color?: string, testId?: string) {
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" ta="right" c={color} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

export function TerminalRegistration({ vehicleId }: { vehicleId: number }) {
  const t = useT(NS);
  const canReset = useAccess().canSeeRoute(RESET_ROUTE);
  const [state, setState] = useState<{ id: number; view: TerminalRegistrationView | null } | null>(null);
  const load = useCallback((signal?: AbortSignal) => {
    fetchRegistration(vehicleId, signal).then(
      (view) => setState({ id: vehicleId, view }),
      () => {
        if (!signal?.aborted) setState({ id: vehicleId, view: null });
      },
    );
  }, [vehicleId]);
  useEffect(() => {
    const ctrl = new AbortController();
    load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);
  if (state?.id !== vehicleId) return null;
  const view = state.view;
  if (!view) return line(t('registration'), t('loadFailed'), 'red');
  const status = view.registered ? t('registered') : view.unregisterBy === 'terminal' ? t('byTerminal') : view.unregisterBy === 'operator' ? t('byOperator') : t('unregistered');
  const confirmReset = () =>
    modals.openConfirmModal({
      title: t('resetTitle'),
      children: <Text size="sm">{t('resetConfirm', { deviceNo: view.deviceNo })}</Text>,
      labels: { confirm: t('confirm'), cancel: t('cancel') },
      confirmProps: { color: 'red', 'data-testid': 'registration-reset-confirm' } as Record<string, unknown>,
      onConfirm: () => {
        resetRegistration(vehicleId).then(
          (next) => {
            setState({ id: vehicleId, view: next });
            notifications.show({ color: 'green', autoClose: 2000, message: t('resetDone') });
          },
          () => undefined, // the http layer shows the server's message
        );
      },
    });
  return (
    <>
      {line(t('registration'), status, undefined, 'registration-state')}
      {view.refusedCount > 0 &&
        line(
          t('refused'),
          t('refusedDetail', { count: view.refusedCount, time: view.refusedTime === null ? '–' : new Date(view.refusedTime).toLocaleString(), address: view.refusedAddress ?? '–' }),
          'orange',
          'registration-refused',
        )}
      {canReset && view.registered && (
        <Group justify="flex-end">
          <Button size="compact-xs" variant="subtle" color="red" onClick={confirmReset} data-testid="registration-reset">
            {t('reset')}
          </Button>
        </Group>
      )}
    </>
  );
}
