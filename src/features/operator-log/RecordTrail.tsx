import { useState } from 'react';
import { Alert, Button, Drawer, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { changeResourceOfRoute, type ChangeResourceName } from '../../../domain/fleet/change-fields.ts';
import { useT } from '../../i18n/index.ts';
import { AuditSections, type AuditTrailProps } from '../../kit/audit.tsx';
import { errorMessage } from '../system/ui/format.ts';
import { operatorLogApi } from './api.ts';
import { ChangeFields, LogHeadline } from './ChangeView.tsx';
import { OPERATOR_LOG_NS } from './messages.ts';

const TRAIL_PAGE = 20;

/**
 * The kit's audit slot on the vehicle, device, driver, installation and line lists: 操作记录 opens the
 * row's trail (binlog/record) in a drawer, newest first, 20 at a time. Other screens get nothing.
 */
export function RecordTrailButton({ route, recordId }: AuditTrailProps) {
  const t = useT(OPERATOR_LOG_NS);
  const [open, setOpen] = useState(false);
  const resource = changeResourceOfRoute(route);
  if (!resource) return null;
  return (
    <>
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)} data-testid="record-trail">
        {t('trail')}
      </Button>
      {open && <RecordTrailDrawer route={route} resource={resource} recordId={recordId} onClose={() => setOpen(false)} />}
    </>
  );
}

function RecordTrailDrawer({ route, resource, recordId, onClose }: { route: string; resource: ChangeResourceName; recordId: number; onClose: () => void }) {
  const t = useT(OPERATOR_LOG_NS);
  // Keyed under the list's route: a write on the screen invalidates the route and the open trail follows.
  const trail = useInfiniteQuery({
    queryKey: [route, 'trail', recordId],
    queryFn: ({ pageParam }) => operatorLogApi.trail(resource, recordId, { current: pageParam, size: TRAIL_PAGE }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * TRAIL_PAGE < last.total ? all.length + 1 : undefined),
  });
  const rows = trail.data?.pages.flatMap((p) => p.records) ?? [];
  const total = trail.data?.pages[0]?.total ?? 0;
  const label = rows[0]?.label ?? `#${recordId}`;

  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('trailTitle', { label })}>
      <Stack gap="md" data-testid="record-trail-drawer">
        {trail.isPending && <Loader size="sm" />}
        {trail.isError && (
          <Alert color="red" variant="light">
            <Group justify="space-between">
              <Text size="sm">{errorMessage(trail.error)}</Text>
              <Button size="compact-xs" variant="light" onClick={() => void trail.refetch()}>{t('retry')}</Button>
            </Group>
          </Alert>
        )}
        {trail.isSuccess && rows.length === 0 && <Text size="sm" c="dimmed">{t('trailEmpty')}</Text>}
        {rows.length > 0 && (
          <Timeline bulletSize={14} lineWidth={2}>
            {rows.map((r) => (
              <Timeline.Item key={r.id} data-testid="trail-entry" title={<LogHeadline row={r} />}>
                <ChangeFields row={r} />
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        {rows.length > 0 && (
          <Group justify="space-between">
            <Text size="xs" c="dimmed">{t('shown', { shown: rows.length, total })}</Text>
            {trail.hasNextPage && (
              <Button size="compact-sm" variant="light" loading={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
                {t('loadMore')}
              </Button>
            )}
          </Group>
        )}
        {/* Wider sources (the audit trail's calls on this row) below the change history. */}
        <AuditSections route={route} recordId={recordId} />
      </Stack>
    </Drawer>
  );
}
