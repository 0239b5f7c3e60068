/**
 * The audit trail as a section of a list row's trail (the kit's audit slot, src/kit/audit.tsx): under the
 * row's change history (操作记录), every call that named the row in the last 93 days (AUDIT_RANGE_DAYS) — who, when, which
 * page and button, with what outcome (refused and invalid calls too) — newest first, 20 at a time, from
 * `GET /service-priv/useroperate/page?recordPage&recordId`. Shown only to a user who may read the audit
 * trail (any of its three screens, the call's own bits); others see the change history alone.
 * The period ends when the first page loads and stays put while more pages load: a `to` taken per page
 * would shift the window, so a call made meanwhile would push a row onto two pages (or skip one).
 */
import { Alert, Button, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_RANGE_DAYS, AUDIT_RANGE_MAX_MS } from '../../../domain/audit/limits.ts';
import { useT } from '../../i18n/index.ts';
import type { AuditTrailProps } from '../../kit/audit.tsx';
import { useAccess } from '../../session/store.ts';
import { errorMessage, formatTime } from '../system/ui/format.ts';
import { auditApi } from './api.ts';
import { ResultBadge } from './ResultBadge.tsx';
import { AUDIT_NS } from './messages.ts';

const PAGE = 20;
export const AUDIT_SCREENS = ['/system/user_operate/operateByPage', '/system/user_operate/operateByButton', '/system/user_operate/operateByDevice'] as const;

export function RowCallsSection({ route, recordId }: AuditTrailProps) {
  const access = useAccess();
  if (!AUDIT_SCREENS.some((s) => access.canSeeRoute(s))) return null;
  return <RowCalls route={route} recordId={recordId} />;
}

/** A page of the listing and the end of its period (absent for the first page: now). */
interface CallsPage { current: number; to?: number }

function RowCalls({ route, recordId }: AuditTrailProps) {
  const t = useT(AUDIT_NS);
  // Keyed under the list's route: a write on the screen invalidates the route, and its call appears here.
  const calls = useInfiniteQuery({
    queryKey: [route, 'calls', recordId],
    // The first page fixes `to`; the next pages carry it. A refetch (a write invalidated the route) starts at
    // page 1 again with a new `to`, so the call just made appears and the pages agree with each other again.
    queryFn: async ({ pageParam }: { pageParam: CallsPage }) => {
      const to = pageParam.to ?? Date.now();
      const page = await auditApi.page({ recordPage: route, recordId, from: to - AUDIT_RANGE_MAX_MS, to, current: pageParam.current, size: PAGE });
      return { ...page, to };
    },
    initialPageParam: { current: 1 } as CallsPage,
    getNextPageParam: (last, all): CallsPage | undefined => (all.length * PAGE < last.total ? { current: all.length + 1, to: all[0]!.to } : undefined),
  });
  const rows = calls.data?.pages.flatMap((p) => p.records) ?? [];
  const total = calls.data?.pages[0]?.total ?? 0;
  return (
    <Stack gap="xs" data-testid="row-calls">
      <Text fw={600} size="sm">{t('rowCallsTitle', { days: AUDIT_RANGE_DAYS })}</Text>
      {calls.isPending && <Loader size="sm" />}
      {calls.isError && <Alert color="red" variant="light">{errorMessage(calls.error)}</Alert>}
      {calls.isSuccess && rows.length === 0 && <Text size="sm" c="dimmed">{t('rowCallsEmpty', { days: AUDIT_RANGE_DAYS })}</Text>}
      {rows.length > 0 && (
        <Timeline bulletSize={12} lineWidth={2}>
          {rows.map((r) => (
            <Timeline.Item key={r.id} data-testid="row-call" title={(
              <Group gap="xs">
                <Text size="sm" fw={500}>{r.buttonName || r.pageName || `${r.method} ${r.route}`}</Text>
                <ResultBadge result={r.result} />
              </Group>
            )}>
              <Text size="xs" c="dimmed">
                {formatTime(r.time)} · {r.realName || r.userName || t('rowCallsSystem')} · {r.ip}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {rows.length > 0 && (
        <Group justify="space-between">
          <Text size="xs" c="dimmed">{t('rowCallsShown', { shown: rows.length, total })}</Text>
          {calls.hasNextPage && (
            <Button size="compact-sm" variant="light" loading={calls.isFetchingNextPage} onClick={() => void calls.fetchNextPage()}>{t('rowCallsMore')}</Button>
          )}
        </Group>
      )}
    </Stack>
  );
}
