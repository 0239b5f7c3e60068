import { useT } from '../../i18n/index.ts';
import { ListPage } from '../../kit/ListPage.tsx';
import { useListPeriod } from '../../kit/period-picker/useListPeriod.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { logTime } from '../operator-log/time.ts';
import { auditApi, type OnlineRow, type PageViewRow } from './api.ts';
import { AUDIT_NS } from './messages.ts';
import { AUDIT_LIMITS, auditBounds, ONLINE_LIMITS } from './period.ts';

const usePeriod = (limits: { maxSpanDays: number }) => useListPeriod({
  bounds: (p) => auditBounds(p, limits), limits, testIds: { start: 'usage-from', end: 'usage-to', quick: 'usage-quick' },
  quick: ['today', 'yesterday', 'last3Days', 'last7Days', 'thisMonth'],
});

/** /system/user_action/detail: the pages users opened (the console's router reports each visit), newest first. */
export function PageVisitsPage() {
  const t = useT(AUDIT_NS);
  const { companyId } = useCompanySelection();
  const { applied, picker } = usePeriod(AUDIT_LIMITS);
  const columns: KitColumn<PageViewRow>[] = [
    { key: 'time', title: t('time'), minWidth: 160, maxWidth: 180, render: (r) => logTime(r.time) },
    { key: 'user', title: t('user'), minWidth: 100, maxWidth: 200, render: (r) => (r.realName ? `${r.realName}（${r.userName}）` : r.userName) },
    { key: 'page', title: t('page'), minWidth: 140, maxWidth: 260, render: (r) => r.pageName },
    { key: 'ip', title: t('ip'), minWidth: 110, maxWidth: 150, render: (r) => r.ip },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];
  return (
    <ListPage<PageViewRow>
      route="/system/user_action/detail"
      pageId="system-user-action-detail"
      title={t('detailTitle')}
      tree={{}}
      searchPlaceholder={t('userKeyword')}
      header={picker}
      fetchPage={(q) => auditApi.views({ ...applied, current: q.current, size: q.size, ...(q.keyword ? { userName: q.keyword } : {}) })}
      scope={{ companyId, ...applied }}
      columns={columns}
    />
  );
}

/** Seconds as 「2 小时 5 分」. */
export function durationText(seconds: number, t: ReturnType<typeof useT>): string {
  const m = Math.floor(seconds / 60);
  return m >= 60 ? t('hm', { h: Math.floor(m / 60), m: m % 60 }) : t('m', { m });
}

/** /system/user_action/online_duration: each user's time signed in per day (sessions split at midnight, China time). */
export function OnlineDurationPage() {
  const t = useT(AUDIT_NS);
  const { companyId } = useCompanySelection();
  const { applied, picker } = usePeriod(ONLINE_LIMITS);
  const columns: KitColumn<OnlineRow>[] = [
    { key: 'date', title: t('date'), minWidth: 110, maxWidth: 130, render: (r) => r.date },
    { key: 'user', title: t('user'), minWidth: 100, maxWidth: 200, render: (r) => (r.realName ? `${r.realName}（${r.userName}）` : r.userName) },
    { key: 'duration', title: t('duration'), minWidth: 110, maxWidth: 160, render: (r) => durationText(r.seconds, t) },
    { key: 'sessions', title: t('sessions'), minWidth: 80, maxWidth: 110, render: (r) => r.sessions },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];
  return (
    <ListPage<OnlineRow>
      route="/system/user_action/online_duration"
      pageId="system-user-action-online"
      title={t('onlineTitle')}
      tree={{}}
      searchPlaceholder={t('userKeyword')}
      header={picker}
      fetchPage={(q) => auditApi.online({ ...applied, current: q.current, size: q.size, ...(q.keyword ? { userName: q.keyword } : {}) })}
      scope={{ companyId, ...applied }}
      columns={columns}
    />
  );
}
