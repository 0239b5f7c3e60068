import { useState } from 'react';
import { Alert, Badge, Box, Button, Drawer, Group, Loader, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { BOX_FILTERS, type BoxFilter } from '../../../domain/box/status.ts';
import { chinaDate } from '../../../domain/track/days.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ListPage } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { logTime } from '../operator-log/time.ts';
import { boxApi, BOX_ROUTE, type BoxRow, type BoxSearch } from './api.ts';
import { BOX_NS } from './messages.ts';
import { PermitsDrawer } from './PermitsDrawer.tsx';
import { SitesDrawer } from './SitesDrawer.tsx';
import { daySegments, kindOf, type SegmentKind } from './timeline.ts';

const FILTER_LABEL: Record<BoxFilter, string> = { lifted: 'stateLifted', unsealed: 'stateUnsealed', loaded: 'stateLoaded', empty: 'stateEmpty' };
const SEGMENT_COLOR: Record<SegmentKind, string> = {
  empty: 'var(--mantine-color-gray-4)', loaded: 'var(--mantine-color-teal-6)', unsealed: 'var(--mantine-color-orange-6)',
  lifted: 'var(--mantine-color-red-6)', unknown: 'transparent',
};
const SEGMENT_LABEL: Record<SegmentKind, string> = { empty: 'segEmpty', loaded: 'segLoaded', unsealed: 'segUnsealed', lifted: 'segLifted', unknown: 'segUnknown' };

/** The list asks again every 30 s, like the dashboard's live panels (stops on error; page and filters stay). */
export const BOX_REFRESH_MS = 30_000;

/**
 * /monitor/boxStatus: the slag trucks of the company picked in the tree with their cargo box state
 * now (loaded or empty, sealed or not, body lifted; since when, speed, place), filtered by state and
 * connection, and one truck's day of states as a bar over 24 h (behind the 状态历史 button).
 */
export function BoxStatusPage() {
  const t = useT(BOX_NS);
  const { companyId } = useCompanySelection();
  const [state, setState] = useState<BoxFilter | null>(null);
  const [online, setOnline] = useState<string | null>(null);
  const [history, setHistory] = useState<BoxRow | undefined>(undefined);
  const [sitesOpen, setSitesOpen] = useState(false);
  const [permitsOpen, setPermitsOpen] = useState(false);
  const search: BoxSearch = { ...(state ? { state } : {}), ...(online !== null ? { online: Number(online) as 0 | 1 } : {}) };

  const columns: KitColumn<BoxRow>[] = [
    { key: 'vehiidno', title: t('plate'), minWidth: 100, maxWidth: 160, render: (r) => <Text size="sm" fw={500}>{r.vehiidno}</Text> },
    {
      key: 'online', title: t('connection'), minWidth: 70, maxWidth: 90,
      render: (r) => <Badge size="sm" variant="light" color={r.online ? 'teal' : 'gray'}>{r.online ? t('online') : t('offline')}</Badge>,
    },
    {
      key: 'loaded', title: t('load'), minWidth: 90, maxWidth: 120,
      render: (r) => (r.box ? (
        <Badge size="sm" color={r.box.loaded ? 'blue' : 'gray'} variant="light" data-testid="box-loaded">
          {r.box.loaded ? t('loaded') : t('empty')}{r.box.loaded && r.box.loadT !== null ? ` · ${t('tonnes', { t: r.box.loadT })}` : ''}
        </Badge>
      ) : <Text size="xs" c="dimmed">{t('noBox')}</Text>),
    },
    {
      key: 'sealed', title: t('cover'), minWidth: 80, maxWidth: 100,
      render: (r) => r.box && <Badge size="sm" color={r.box.sealed ? 'teal' : 'orange'} variant={r.box.sealed ? 'light' : 'filled'} data-testid="box-sealed">{r.box.sealed ? t('sealed') : t('unsealed')}</Badge>,
    },
    {
      key: 'lifted', title: t('body'), minWidth: 70, maxWidth: 90,
      render: (r) => r.box && <Badge size="sm" color={r.box.lifted ? 'red' : 'gray'} variant={r.box.lifted ? 'filled' : 'light'} data-testid="box-lifted">{r.box.lifted ? t('lifted') : t('down')}</Badge>,
    },
    { key: 'since', title: t('since'), minWidth: 150, maxWidth: 170, render: (r) => (r.box ? logTime(r.box.since) : '') },
    { key: 'speed', title: t('speed'), minWidth: 70, maxWidth: 90, render: (r) => (r.box ? `${r.box.speed.toFixed(0)} km/h` : '') },
    { key: 'place', title: t('place'), minWidth: 150, maxWidth: 200, render: (r) => (r.box ? `${r.box.lng.toFixed(5)}, ${r.box.lat.toFixed(5)}` : '') },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];

  return (
    <ListPage<BoxRow>
      route={BOX_ROUTE}
      pageId="monitor-box-status"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keyword')}
      filters={
        <Group gap="xs" wrap="nowrap">
          <Select size="sm" w={130} clearable placeholder={t('allStates')} aria-label={t('state')} data-testid="box-state-filter" value={state}
            onChange={(v) => setState(v as BoxFilter | null)} data={BOX_FILTERS.map((f) => ({ value: f, label: t(FILTER_LABEL[f]) }))} />
          <Select size="sm" w={120} clearable placeholder={t('allOnline')} aria-label={t('connection')} data-testid="box-online-filter" value={online}
            onChange={setOnline} data={[{ value: '1', label: t('online') }, { value: '0', label: t('offline') }]} />
        </Group>
      }
      fetchPage={(q) => boxApi.page({ ...search, current: q.current, size: q.size, ...(q.keyword ? { keyword: q.keyword } : {}) })}
      scope={{ companyId, ...search }}
      refreshMs={BOX_REFRESH_MS}
      columns={columns}
      toolbar={
        <Group gap="xs" wrap="nowrap">
          <Button size="sm" variant="default" onClick={() => setSitesOpen(true)} data-testid="box-sites-open">{t('sites')}</Button>
          <Button size="sm" variant="default" onClick={() => setPermitsOpen(true)} data-testid="box-permits-open">{t('permits')}</Button>
        </Group>
      }
      rowActions={(r) => (
        <Perm route={BOX_ROUTE} button="history">
          <Button size="compact-xs" variant="light" onClick={() => setHistory(r)} data-testid="box-history">{t('history')}</Button>
        </Perm>
      )}
      actionsWidth={90}
    >
      {history && <BoxHistoryDrawer row={history} onClose={() => setHistory(undefined)} />}
      {sitesOpen && <SitesDrawer onClose={() => setSitesOpen(false)} />}
      {permitsOpen && <PermitsDrawer onClose={() => setPermitsOpen(false)} />}
    </ListPage>
  );
}

function BoxHistoryDrawer({ row, onClose }: { row: BoxRow; onClose: () => void }) {
  const t = useT(BOX_NS);
  const [day, setDay] = useState(() => chinaDate(Date.now()));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day);
  const q = useQuery({ queryKey: [BOX_ROUTE, 'day', row.vehicleId, day], queryFn: () => boxApi.day(row.vehicleId, day), enabled: valid });
  const data = q.data;
  const segments = data ? daySegments(data.start, data.end, data.initial, data.changes, q.dataUpdatedAt) : [];
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('historyTitle', { plate: row.vehiidno })}>
      <Stack gap="sm" data-testid="box-history-drawer">
        <TextInput type="date" label={t('day')} value={day} onChange={(e) => setDay(e.currentTarget.value)} w={180} data-testid="box-history-day" />
        {q.isLoading && <Loader size="sm" />}
        {q.error && <Alert color="red">{(q.error as { msg?: string }).msg ?? String(q.error)}</Alert>}
        {data && (
          <>
            <Box pos="relative" h={22} style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, overflow: 'hidden' }} data-testid="box-timeline">
              {segments.map((s) => (
                <Tooltip key={s.from} label={`${t(SEGMENT_LABEL[s.kind])} ${logTime(s.from).slice(11)}–${logTime(s.to).slice(11)}`}>
                  <Box pos="absolute" top={0} bottom={0} data-kind={s.kind}
                    style={{ left: `${((s.from - data.start) / 864_000)}%`, width: `${((s.to - s.from) / 864_000)}%`, background: SEGMENT_COLOR[s.kind] }} />
                </Tooltip>
              ))}
            </Box>
            <Group justify="space-between"><Text size="xs" c="dimmed">00:00</Text><Text size="xs" c="dimmed">12:00</Text><Text size="xs" c="dimmed">24:00</Text></Group>
            <Group gap="md">
              {(['empty', 'loaded', 'unsealed', 'lifted'] as const).map((k) => (
                <Group key={k} gap={4}><Box w={12} h={12} style={{ background: SEGMENT_COLOR[k], borderRadius: 2 }} /><Text size="xs">{t(SEGMENT_LABEL[k])}</Text></Group>
              ))}
            </Group>
            <Text size="sm" c="dimmed">{data.initial ? `${t('stateAtStart')}: ${t(SEGMENT_LABEL[kindOf(data.initial)])}` : t('unknownAtStart')}</Text>
            {data.changes.length === 0 ? <Text size="sm">{t('noChanges')}</Text> : (
              <Stack gap={4} data-testid="box-history-changes">
                {data.changes.map((c) => (
                  <Group key={c.time} gap="sm" wrap="nowrap">
                    <Text size="sm" w={80}>{logTime(c.time).slice(11)}</Text>
                    <Badge size="sm" variant="light" style={{ background: SEGMENT_COLOR[kindOf(c)], color: kindOf(c) === 'empty' ? undefined : 'white' }}>{t(SEGMENT_LABEL[kindOf(c)])}</Badge>
                    <Text size="xs" c="dimmed">{c.speed.toFixed(0)} km/h · {c.lng.toFixed(5)}, {c.lat.toFixed(5)}</Text>
                  </Group>
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Drawer>
  );
}
