import { useState } from 'react';
import { Badge, Button, Drawer, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { INSTALLATION_KIND_CODES, INSTALLATION_KIND_NAMES, type InstallationKindCode } from '../../../domain/fleet/installation.ts';
import { valueTime, type Period } from '../../../domain/period/period.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import { PeriodPicker } from '../../kit/period-picker/PeriodPicker.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { installationApi, type Installation, type InstallationFilters } from './api.ts';
import { InstallationCreateForm, InstallationEditForm, ROUTE } from './InstallationForms.tsx';
import { INSTALLATION_NS } from './messages.ts';
import { OneLine } from './OneLine.tsx';
import { PhotoGrid } from './Photos.tsx';

const KIND_COLOR: Record<InstallationKindCode, string> = { install: 'green', remove: 'gray', replace: 'orange' };
const DAY_MS = 86_400_000;

type Dialog = { kind: 'create' } | { kind: 'edit'; id: number } | { kind: 'detail'; id: number } | undefined;

/** The period filter as the call's inclusive bounds: whole days, the end day included. */
export function periodFilter(p: Period): Pick<InstallationFilters, 'from' | 'to'> {
  const from = valueTime(p.start);
  const to = valueTime(p.end);
  return { ...(Number.isFinite(from) ? { from } : {}), ...(Number.isFinite(to) ? { to: to + DAY_MS - 1 } : {}) };
}

function KindBadge({ kind }: { kind: InstallationKindCode }) {
  const lang = useLang();
  return <Badge variant="light" size="sm" color={KIND_COLOR[kind]} data-kind={kind}>{INSTALLATION_KIND_NAMES[kind][lang === 'zh' ? 0 : 1]}</Badge>;
}

function Devices({ r }: { r: Installation }) {
  const t = useT(INSTALLATION_NS);
  return (
    <Text size="sm" ff="monospace" truncate="end">
      {r.oldDeviceNo ?? <Text span c="dimmed" size="sm">{t('none')}</Text>} → {r.newDeviceNo ?? <Text span c="dimmed" size="sm">{t('none')}</Text>}
    </Text>
  );
}

/**
 * /information/vehicle_installed: installation records (install, remove, replace) of the company picked
 * in the tree and below, with keyword, kind and period filters; 新增 records a binding change with photos,
 * 修改 edits a record's own fields and photos, 删除 removes records only (no binding changes).
 */
export function InstallationsPage() {
  const t = useT(INSTALLATION_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [kind, setKind] = useState<InstallationKindCode | null>(null);
  const [period, setPeriod] = useState<Period>({ start: '', end: '' });
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const invalidate = useInvalidate(ROUTE);
  const filters: InstallationFilters = { ...(kind ? { kind } : {}), ...periodFilter(period) };

  // One line per row: a long value ends in an ellipsis and shows whole in a tooltip (the detail has it all).
  const columns: KitColumn<Installation>[] = [
    { key: 'plate', title: t('plate'), minWidth: 110, maxWidth: 160, render: (r) => <OneLine text={r.plate} fw={500} /> },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => <OneLine text={r.companyName} /> },
    { key: 'kind', title: t('kind'), minWidth: 70, maxWidth: 90, render: (r) => <KindBadge kind={r.kind} /> },
    { key: 'devices', title: t('devices'), minWidth: 250, maxWidth: 280, render: (r) => <Devices r={r} /> },
    { key: 'installer', title: t('installer'), minWidth: 90, maxWidth: 160, render: (r) => <OneLine text={r.installer} /> },
    { key: 'installTime', title: t('installTime'), minWidth: 130, maxWidth: 170, render: (r) => <OneLine text={formatTime(r.installTime)} /> },
    { key: 'userName', title: t('operator'), minWidth: 90, maxWidth: 160, render: (r) => <OneLine text={r.userName} /> },
    { key: 'photoCount', title: t('photos'), minWidth: 60, maxWidth: 80, align: 'right', render: (r) => (r.photoCount > 0 ? <OneLine text={t('photoCount', { count: r.photoCount })} /> : '') },
    { key: 'remark', title: t('remark'), minWidth: 120, maxWidth: 320, render: (r) => <OneLine text={r.remark} /> },
  ];

  const close = () => setDialog(undefined);
  const saved = () => {
    setDialog(undefined);
    void invalidate();
  };

  return (
    <ListPage<Installation>
      route={ROUTE}
      pageId="information-vehicle-installed"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      // The kind and the period after the keyword box (the kit's filter bar wraps them when the line is short).
      filters={
        <>
          <Select
            size="sm"
            w={120}
            aria-label={t('kindFilter')}
            placeholder={t('kindAll')}
            clearable
            data={INSTALLATION_KIND_CODES.map((k) => ({ value: k, label: INSTALLATION_KIND_NAMES[k][lang === 'zh' ? 0 : 1] }))}
            value={kind}
            onChange={(v) => setKind(v as InstallationKindCode | null)}
            data-testid="installation-kind-filter"
          />
          <PeriodPicker mode="date" size="sm" value={period} onChange={setPeriod} quick={['today', 'last7Days', 'thisMonth', 'lastMonth']} labels={{ start: '', end: '' }}
            testIds={{ start: 'installation-from', end: 'installation-to', quick: 'installation-quick' }} />
        </>
      }
      fetchPage={(q) => installationApi.page({ ...q, keyword: q.keyword || undefined, ...filters })}
      scope={{ companyId, ...filters }}
      columns={columns}
      actionsWidth={260}
      rowActions={(r) => (
        <Button size="compact-xs" variant="subtle" onClick={() => setDialog({ kind: 'detail', id: r.id })} data-testid="installation-detail">
          {t('detail')}
        </Button>
      )}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(r) => setDialog({ kind: 'edit', id: r.id })}
      remove={{
        name: (r) => r.plate,
        message: (r) => t('deleteConfirm', { plate: r.plate, time: formatTime(r.installTime), kind: INSTALLATION_KIND_NAMES[r.kind][lang === 'zh' ? 0 : 1] }),
        call: (r) => installationApi.remove([r.id]),
      }}
    >
      {dialog?.kind === 'create' && <InstallationCreateForm onClose={close} onSaved={saved} />}
      {dialog?.kind === 'edit' && <EditLoader id={dialog.id} onClose={close} onSaved={saved} />}
      {dialog?.kind === 'detail' && <InstallationDetail id={dialog.id} onClose={close} />}
    </ListPage>
  );
}

/** The edit form opens on the record as stored now (its photos included). */
function EditLoader({ id, onClose, onSaved }: { id: number; onClose: () => void; onSaved: () => void }) {
  const record = useQuery({ queryKey: [ROUTE, 'detail', id], queryFn: () => installationApi.detail(id), staleTime: 0 });
  return record.data ? <InstallationEditForm record={record.data} onClose={onClose} onSaved={onSaved} /> : null;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div">{children || '—'}</Text>
    </Stack>
  );
}

function InstallationDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useT(INSTALLATION_NS);
  const record = useQuery({ queryKey: [ROUTE, 'detail', id], queryFn: () => installationApi.detail(id), staleTime: 0 });
  const r = record.data;
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={r ? t('detailTitle', { plate: r.plate }) : t('detail')}>
      {r && (
        <Stack gap="sm" data-testid="installation-detail-drawer">
          <SimpleGrid cols={2} spacing="sm">
            <Field label={t('plate')}>{r.plate}</Field>
            <Field label={t('company')}>{r.companyName}</Field>
            <Field label={t('kind')}><KindBadge kind={r.kind} /></Field>
            <Field label={t('installer')}>{r.installer}</Field>
            <Field label={t('installTime')}>{formatTime(r.installTime)}</Field>
            <Field label={t('operator')}>{r.userName}</Field>
            <Field label={t('createTime')}>{formatTime(r.createTime)}</Field>
          </SimpleGrid>
          <Field label={t('devices')}><Devices r={r} /></Field>
          <Field label={t('remark')}>{r.remark}</Field>
          <Text size="xs" c="dimmed">{t('photos')}</Text>
          <PhotoGrid photos={r.photos} />
        </Stack>
      )}
      {record.isError && <Text c="red">{(record.error as Error).message}</Text>}
    </Drawer>
  );
}
