import { useState } from 'react';
import { Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { ListPage } from '../../kit/ListPage.tsx';
import { useListPeriod } from '../../kit/period-picker/useListPeriod.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { logTime } from '../operator-log/time.ts';
import { auditApi, type AuditResult, type AuditRow, type AuditSearch } from './api.ts';
import { AUDIT_NS } from './messages.ts';
import { AUDIT_LIMITS, auditBounds } from './period.ts';
import { ResultBadge } from './ResultBadge.tsx';

export type AuditMode = 'page' | 'button' | 'device';

const ROUTES: Record<AuditMode, string> = {
  page: '/system/user_operate/operateByPage',
  button: '/system/user_operate/operateByButton',
  device: '/system/user_operate/operateByDevice',
};

/**
 * /system/user_operate/operateByPage, operateByButton and operateByDevice: the audit trail (every
 * state-changing call, recorded by the server's one hook) for the company picked in the tree. The
 * select lists the period's pages / buttons / vehicles and devices with their counts (the summary
 * call); the list shows the calls of the one chosen (all when none), newest first; keyword = user name.
 */
export function AuditPage({ mode }: { mode: AuditMode }) {
  const t = useT(AUDIT_NS);
  const route = ROUTES[mode];
  const { companyId } = useCompanySelection();
  const { applied, picker } = useListPeriod({
    bounds: auditBounds, limits: AUDIT_LIMITS, testIds: { start: 'audit-from', end: 'audit-to', quick: 'audit-quick' },
    quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth', 'lastMonth'],
  });
  const [group, setGroup] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const groups = useQuery({
    queryKey: [route, 'groups', { companyId, ...applied }],
    queryFn: async () => {
      if (mode === 'device') {
        const rows = await auditApi.byDevice(applied);
        return rows.map((r) => ({ value: `${r.kind}:${r.id}`, label: t('count', { name: `${t(r.kind)} ${r.name || r.id}`, total: r.total }) }));
      }
      const rows = await (mode === 'page' ? auditApi.byPage(applied) : auditApi.byButton(applied));
      return rows.map((r) => ({ value: r.key, label: t('count', { name: r.name, total: r.total }) }));
    },
  });

  const search: AuditSearch = { ...applied, ...(result ? { result: result as AuditResult } : {}) };
  if (group) {
    if (mode === 'page') search.page = group;
    else if (mode === 'button') search.button = group;
    else {
      const [kind, id] = group.split(':');
      if (kind === 'vehicle') search.vehicleId = Number(id);
      else search.deviceId = Number(id);
    }
  }

  const columns: KitColumn<AuditRow>[] = [
    { key: 'time', title: t('time'), minWidth: 160, maxWidth: 180, render: (r) => logTime(r.time) },
    { key: 'user', title: t('user'), minWidth: 100, maxWidth: 180, render: (r) => (r.realName ? `${r.realName}（${r.userName}）` : r.userName || t('none')) },
    { key: 'page', title: t('page'), minWidth: 120, maxWidth: 220, render: (r) => r.pageName || t('none') },
    { key: 'button', title: t('button'), minWidth: 120, maxWidth: 240, render: (r) => r.buttonName || t('none') },
    { key: 'targets', title: t('targets'), minWidth: 120, maxWidth: 260, render: (r) => (r.targets.length === 0 ? t('none') : r.targets.slice(0, 6).map((x) => `${t(x.kind, { defaultValue: x.kind })} ${x.id}`).join('，') + (r.targets.length > 6 ? ' …' : '')) },
    { key: 'result', title: t('result'), minWidth: 80, maxWidth: 110, render: (r) => <ResultBadge result={r.result} /> },
    { key: 'call', title: t('call'), minWidth: 180, maxWidth: 340, render: (r) => <Text size="xs" ff="monospace">{r.method} {r.route}</Text> },
    { key: 'ip', title: t('ip'), minWidth: 110, maxWidth: 150, render: (r) => r.ip },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];

  const titles: Record<AuditMode, string> = { page: t('byPageTitle'), button: t('byButtonTitle'), device: t('byDeviceTitle') };
  const all: Record<AuditMode, string> = { page: t('allPages'), button: t('allButtons'), device: t('allDevices') };

  return (
    <ListPage<AuditRow>
      route={route}
      pageId={`system-operate-${mode}`}
      title={titles[mode]}
      tree={{}}
      searchPlaceholder={t('userKeyword')}
      header={picker}
      filters={
        <>
          <Select size="sm" w={260} clearable searchable placeholder={all[mode]} aria-label={titles[mode]} data-testid="audit-group"
            value={group} onChange={setGroup} data={groups.data ?? []} />
          <Select size="sm" w={120} clearable placeholder={t('allResults')} aria-label={t('result')} data-testid="audit-result"
            value={result} onChange={setResult} data={(['ok', 'refused', 'invalid', 'error'] as const).map((r) => ({ value: r, label: t(`result_${r}`) }))} />
        </>
      }
      fetchPage={(q) => auditApi.page({ ...search, current: q.current, size: q.size, ...(q.keyword ? { userName: q.keyword } : {}) })}
      scope={{ companyId, ...search }}
      columns={columns}
    />
  );
}
