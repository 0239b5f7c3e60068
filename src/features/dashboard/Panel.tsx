/**
 * One dashboard panel's frame: title, an optional click target (spec §6: navigate when permitted, else
 * 暂无该权限！), and the data states — loading, failed (spec §8: logged; a panel with a fallback shows
 * it instead), empty. The body fills the frame, so a panel scales with the container it is put in
 * (a dashboard cell or a wall's grid cell).
 */
import type { ReactNode } from 'react';
import { Loader, Paper, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { panelClick, type PanelTarget } from '../../../domain/dashboard/rules.ts';
import { navigateHref } from '../../app/navigate.ts';
import { TOAST_MS } from '../../api/http.ts';
import { translate, useT } from '../../i18n/index.ts';
import { currentAccess } from '../../session/store.ts';
import { DASHBOARD_NS } from './messages.ts';

/** Spec §6: goes to the panel's page when the user may see it, else warns and stays. */
export function openPanelTarget(target: PanelTarget): void {
  const access = currentAccess();
  const r = panelClick(target, (route) => access.canSeeRoute(route));
  if ('navigate' in r) void navigateHref(r.navigate);
  else notifications.show({ id: 'dashboard-no-permission', color: 'yellow', autoClose: TOAST_MS, message: translate('noPermission', undefined, DASHBOARD_NS) });
}

export interface PanelProps {
  /** Stable id: `data-testid="panel-<id>"`. */
  id: string;
  title: ReactNode;
  /** Where a click on the title goes (spec §2 targets). */
  target?: PanelTarget;
  /** Extra controls right of the title (tabs, a period note). */
  extra?: ReactNode;
  /** 'ready' renders children; the others their state. */
  state: 'loading' | 'failed' | 'empty' | 'ready';
  emptyText?: string;
  children?: ReactNode;
}

export function Panel({ id, title, target, extra, state, emptyText, children }: PanelProps) {
  const t = useT(DASHBOARD_NS);
  const heading = (
    <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
      {title}
    </Text>
  );
  return (
    <Paper withBorder radius="md" p="xs" data-testid={`panel-${id}`} data-state={state}
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, height: '100%', overflow: 'hidden' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 6, minHeight: 24 }}>
        {target ? (
          <UnstyledButton onClick={() => openPanelTarget(target)} data-testid={`panel-${id}-open`} style={{ minWidth: 0 }} title={title?.toString()}>
            {heading}
          </UnstyledButton>
        ) : heading}
        <div style={{ marginLeft: 'auto' }}>{extra}</div>
      </div>
      <div style={{ flex: 1, minHeight: 0, position: 'relative', overflow: 'hidden' }}>
        {state === 'ready' ? children : (
          <div style={{ display: 'flex', height: '100%', alignItems: 'center', justifyContent: 'center' }} data-testid={`panel-${id}-${state}`}>
            {state === 'loading' ? <Loader size="sm" /> : <Text size="sm" c="dimmed">{state === 'failed' ? t('failed') : emptyText ?? t('empty')}</Text>}
          </div>
        )}
      </div>
    </Paper>
  );
}

/** One figure: a label over a big number (the online and health panels). */
export function Figure({ label, value, testId, onClick, unit }: { label: string; value: number | string; testId: string; onClick?: () => void; unit?: string }) {
  const body = (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={label}>{label}</Text>
      <Text fw={700} style={{ fontSize: 'clamp(14px, 1.2vw, 36px)', lineHeight: 1.2 }} data-testid={testId}>
        {value}{unit ? <Text span size="xs" c="dimmed"> {unit}</Text> : null}
      </Text>
    </div>
  );
  return onClick ? <UnstyledButton onClick={onClick} style={{ minWidth: 0, textAlign: 'left' }}>{body}</UnstyledButton> : body;
}

/** The state of a query as a panel state. */
export function stateOf(q: { isPending: boolean; isError: boolean; data?: unknown }, empty = false): PanelProps['state'] {
  if (q.isPending) return 'loading';
  if (q.isError && q.data === undefined) return 'failed';
  return empty ? 'empty' : 'ready';
}
