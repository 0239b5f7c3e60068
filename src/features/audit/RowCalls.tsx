/**
 * The audit trail as a section of a list row's trail (the kit's audit slot, src/kit/audit.tsx): under the
 * row's change history (操作记录), every call that named the row in the last 93 days — who, when, which
 * page and button, with what outcome (refused and invalid calls too) — newest first, 20 at a time, from
 * `GET /service-priv/useroperate/page?recordPage&recordId`. Shown only to a user who may read the audit
 * trail (any of its three screens, the call's own bits); others see the change history alone.
 */
import { Alert, Button, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { DAY_MS } from '../../../domain/track/days.ts';
import { useT } from '../../i18n/index.ts';
import type { AuditTrailProps } from '../../kit/audit.tsx';
import { useAccess } from '../../session/store.ts';
import { errorMessage, formatTime } from '../system/ui/format.ts';
import { auditApi } from './api.ts';
import { ResultBadge } from './AuditPage.tsx';
import { AUDIT_NS } from './messages.ts';

const PAGE = 20;
/** The server's longest period (AUDIT_RANGE_MAX_MS). */
const SPAN_MS = 93 * DAY_MS;
export const AUDIT_SCREENS = ['/system/user_operate/operateByPage', '/system/user_operate/operateByButton', '/system/user_operate/operateByDevice'] as const;

export function RowCallsSection({ route, recordId }: AuditTrailProps) {
  const access = useAccess();
  if (!AUDIT_SCREENS.some((s) => access.canSeeRoute(s))) return null;
  return <RowCalls route={route} recordId={recordId} />;
}

function RowCalls({ route, recordId }: AuditTrailProps) {
  const t = useT(AUDIT_NS);
  // Keyed under the list's route: a write on the screen invalidates the route, and its call appears here.
  const calls = useInfiniteQuery({
    queryKey: [route, 'calls', recordId],
    queryFn: ({ pageParam }) => {
      const to = Date.now();
      return auditApi.page({ recordPage: route, recordId, from: to - SPAN_MS, to, current: pageParam, size: PAGE });
    },
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE < last.total ? all.length + 1 : undefined),
  });
  const rows = calls.data?.pages.flatMap((p) => p.records) ?? [];
  const total = calls.data?.pages[0]?.total ?? 0;
  return (
    <Stack gap="xs" data-testid="row-calls">
      <Text fw={600} size="sm">{t('rowCallsTitle')}</Text>
      {calls.isPending && <Loader size="sm" />}
      {calls.isError && <Alert color="red" variant="light">{errorMessage(calls.error)}</Alert>}
      {calls.isSuccess && rows.length === 0 && <Text size="sm" c="dimmed">{t('rowCallsEmpty')}</Text>}
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
