import { useState } from 'react';
import { Badge, Button, Checkbox, CloseButton, Group, Indicator, Popover, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PLATE_COLOR_NAMES, VEHICLE_LIMITS as L, VEHICLE_TYPE_NAMES, VEHICLE_TYPES, type ExpiryState, type PlateColor, type VehicleType } from '../../../domain/fleet/limits.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { companySelection, useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { vehicleApi, type Vehicle, type VehicleFilters } from './api.ts';
import { MoveDialog } from './MoveDialog.tsx';
import { VEHICLE_NS } from './messages.ts';
import { dayText, MOVE_MAX, moveProblem } from './vehicle-form.ts';
import { VehicleForm } from './VehicleForm.tsx';
import { FaceSyncDialog } from '../face-warehouse/FaceSyncDialog.tsx';
import { FACE_NS } from '../face-warehouse/messages.ts';

const ROUTE = '/information/vehicle';

type Dialog = { kind: 'create' } | { kind: 'edit'; vehicle: Vehicle } | { kind: 'move' } | { kind: 'faceSync'; vehicles: Vehicle[] } | undefined;

const num = (v: string | null) => (v === null ? undefined : Number(v));

/**
 * /information/vehicle: the vehicles of the company picked in the tree (and below it) with filters
 * (keyword, status, type, device bound, documents expiring), the header's counts, create / edit with
 * every field, delete, 转移公司 over the ticked rows (≤ 500), .xlsx import (template) and export.
 */
export function VehiclePage() {
  const t = useT(VEHICLE_NS);
  const tf = useT(FACE_NS);
  const lang = useLang();
  const word = (names: readonly [string, string] | undefined) => names?.[lang === 'zh' ? 0 : 1] ?? '';
  // A line (L node) clicked in the tree lists that line's vehicles (spec §2: the tree's L nodes).
  const { companyId, line } = useCompanySelection();
  const onLine = line ? { lineId: line.id } : {};
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [filters, setFilters] = useState<VehicleFilters>({});
  const [rows, setRows] = useState<Vehicle[]>([]);
  const [selected, setSelected] = useState<Map<number, Vehicle>>(new Map());
  const invalidate = useInvalidate(ROUTE);
  const status = useQuery({ queryKey: [ROUTE, 'status', companyId], queryFn: () => vehicleApi.status() });

  const toggle = (list: Vehicle[], on: boolean) =>
    setSelected((old) => {
      const next = new Map(old);
      for (const v of list) if (on) next.set(v.id, v); else next.delete(v.id);
      return next;
    });
  const allOnPage = rows.length > 0 && rows.every((v) => selected.has(v.id));

  const expiryBadge = (ms: number | null, state: ExpiryState) => (
    <Group gap={4} wrap="nowrap">
      <Text size="sm">{dayText(ms)}</Text>
      {state === 'soon' && <Tooltip label={t('soonBadge', { days: L.expiryWarnDays })}><Badge color="orange" size="xs" variant="light">{t('expirySoon')}</Badge></Tooltip>}
      {state === 'expired' && <Badge color="red" size="xs" variant="filled">{t('expiredBadge')}</Badge>}
    </Group>
  );

  const columns: KitColumn<Vehicle>[] = [
    {
      key: 'select', minWidth: 40, maxWidth: 40,
      title: <Checkbox size="xs" aria-label={t('selected', { n: rows.length })} checked={allOnPage} indeterminate={!allOnPage && rows.some((v) => selected.has(v.id))} onChange={() => toggle(rows, !allOnPage)} data-testid="vehicle-select-page" />,
      render: (v) => <Checkbox size="xs" aria-label={v.vehiidno} checked={selected.has(v.id)} onChange={(e) => toggle([v], e.currentTarget.checked)} />,
    },
    { key: 'vehiidno', title: t('plate'), minWidth: 110, maxWidth: 160, render: (v) => <Text size="sm" fw={500}>{v.vehiidno}</Text> },
    { key: 'plateColor', title: t('plateColor'), minWidth: 70, maxWidth: 90, render: (v) => word(PLATE_COLOR_NAMES[v.plateColor as PlateColor]) },
    { key: 'vin', title: t('vin'), minWidth: 170, maxWidth: 200, render: (v) => <Text size="sm" ff="monospace">{v.vin}</Text> },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 240, render: (v) => v.companyName },
    { key: 'lineName', title: t('line'), minWidth: 80, maxWidth: 160, render: (v) => v.lineName ?? '' },
    { key: 'vehicleType', title: t('vehicleType'), minWidth: 110, maxWidth: 150, render: (v) => word(VEHICLE_TYPE_NAMES[v.vehicleType as VehicleType]) },
    { key: 'deviceNo', title: t('deviceNo'), minWidth: 120, maxWidth: 150, render: (v) => (v.deviceNo ? <Text size="sm" ff="monospace">{v.deviceNo}</Text> : <Text size="sm" c="dimmed">{t('boundNo')}</Text>) },
    { key: 'channels', title: t('channels'), minWidth: 70, maxWidth: 200, render: (v) => (v.channels.length ? <Tooltip label={v.channels.map((c) => `${c.channel}${c.name ? ` ${c.name}` : ''}`).join(' · ')}><Text size="sm">{v.channels.length}</Text></Tooltip> : '') },
    { key: 'drivers', title: t('drivers'), minWidth: 90, maxWidth: 200, render: (v) => v.drivers.map((d) => d.name).join('、') },
    { key: 'status', title: t('status'), minWidth: 70, maxWidth: 90, render: (v) => <Badge size="sm" variant="light" color={v.status === 1 ? 'green' : 'gray'}>{v.status === 1 ? t('inService') : t('retired')}</Badge> },
    { key: 'insuranceExpire', title: t('insuranceExpire'), minWidth: 150, maxWidth: 180, render: (v) => expiryBadge(v.insuranceExpire, v.insuranceState) },
    { key: 'inspectionExpire', title: t('inspectionExpire'), minWidth: 150, maxWidth: 180, render: (v) => expiryBadge(v.inspectionExpire, v.inspectionState) },
    { key: 'remark', title: t('remark'), minWidth: 100, maxWidth: 300, render: (v) => v.remark },
    { key: 'updateTime', title: t('updateTime'), minWidth: 130, maxWidth: 170, render: (v) => formatTime(v.updateTime) },
  ];

  const active = Object.values(filters).filter((v) => v !== undefined).length;
  // The four filters sit in one popover after the keyword box: one button however narrow the line.
  const filterInputs = (
    <Popover position="bottom-start" shadow="md" withinPortal>
      <Popover.Target>
        <Indicator label={active} size={16} disabled={active === 0}>
          <Button size="sm" variant="default" data-testid="vehicle-filters">{t('filters')}</Button>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={200}>
          <Select size="sm" clearable comboboxProps={{ withinPortal: false }} label={t('status')} placeholder={t('allStatus')} data={[{ value: '1', label: t('inService') }, { value: '0', label: t('retired') }]}
            value={filters.status === undefined ? null : String(filters.status)} onChange={(v) => setFilters((f) => ({ ...f, status: num(v) }))} data-testid="vehicle-filter-status" />
          <Select size="sm" clearable comboboxProps={{ withinPortal: false }} label={t('vehicleType')} placeholder={t('allTypes')} data={VEHICLE_TYPES.map((c) => ({ value: c, label: word(VEHICLE_TYPE_NAMES[c]) }))}
            value={filters.vehicleType ?? null} onChange={(v) => setFilters((f) => ({ ...f, vehicleType: v ?? undefined }))} />
          <Select size="sm" clearable comboboxProps={{ withinPortal: false }} label={t('bound')} data={[{ value: '1', label: t('boundYes') }, { value: '0', label: t('boundNo') }]}
            value={filters.bound === undefined ? null : String(filters.bound)} onChange={(v) => setFilters((f) => ({ ...f, bound: num(v) }))} data-testid="vehicle-filter-bound" />
          <Select size="sm" clearable comboboxProps={{ withinPortal: false }} label={t('expiry')} data={[{ value: 'soon', label: t('expirySoon') }, { value: 'expired', label: t('expiryExpired') }]}
            value={filters.expiry ?? null} onChange={(v) => setFilters((f) => ({ ...f, expiry: (v ?? undefined) as VehicleFilters['expiry'] }))} data-testid="vehicle-filter-expiry" />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );

  const s = status.data;
  const problem = moveProblem(selected.size);
  // The header: the counts, and 转移公司 for the ticked rows (≤ 500); while rows are ticked, the selection replaces the counts.
  const moveButton = (
    <Perm route={ROUTE} button="move">
      <Tooltip label={problem ? t(problem, { max: MOVE_MAX, n: selected.size }) : t('selected', { n: selected.size })}>
        <Button size="compact-sm" variant="light" disabled={problem !== undefined} onClick={() => setDialog({ kind: 'move' })} data-testid="vehicle-move-open">
          {t('move')}
        </Button>
      </Tooltip>
    </Perm>
  );
  // 同步人脸库 (bit 360) for the ticked rows, same 500 limit as 转移公司: the answer per vehicle shows in a dialog.
  const faceButton = (
    <Perm route={ROUTE} button="faceWarehouse">
      <Tooltip label={problem === 'moveTooMany' ? tf('syncTooMany', { max: MOVE_MAX, n: selected.size }) : tf('syncHint', { max: MOVE_MAX })}>
        <Button size="compact-sm" variant="light" color="teal" disabled={problem !== undefined} onClick={() => setDialog({ kind: 'faceSync', vehicles: [...selected.values()] })} data-testid="vehicle-face-sync">
          {tf('sync')}
        </Button>
      </Tooltip>
    </Perm>
  );
  // The header wraps (right-aligned) rather than cutting its badges when the page is narrow (tree, docked alarm pop-up).
  const header = selected.size > 0 ? (
    <Group gap={6} wrap="wrap" justify="flex-end" data-testid="vehicle-selection">
      <Badge variant="filled">{t('selected', { n: selected.size })}</Badge>
      {moveButton}
      {faceButton}
      <Button size="compact-sm" variant="subtle" onClick={() => setSelected(new Map())}>{t('clearSelection')}</Button>
    </Group>
  ) : (
    <Group gap={6} wrap="wrap" justify="flex-end">
      {line && (
        <Badge variant="outline" data-testid="vehicle-line" rightSection={
          <CloseButton size="xs" aria-label={t('leaveLine')} onClick={() => { companySelection.line = null; }} />
        }>{t('onLine', { name: line.name })}</Badge>
      )}
      {s && (
        <Group gap={6} wrap="wrap" justify="flex-end" data-testid="vehicle-counts">
          <Badge variant="light">{t('countTotal', { n: s.total })}</Badge>
          <Badge variant="light" color="green">{t('countOnline', { n: s.online })}</Badge>
          {/* A count that names a filter applies it when clicked. */}
          <Badge component="button" style={{ cursor: 'pointer' }} variant="light" color="gray" onClick={() => setFilters({ status: 0 })}>{t('countRetired', { n: s.retired })}</Badge>
          <Badge component="button" style={{ cursor: 'pointer' }} variant="light" color="gray" onClick={() => setFilters({ bound: 0 })}>{t('countUnbound', { n: s.total - s.bound })}</Badge>
          {s.insuranceSoon + s.inspectionSoon > 0 && <Badge component="button" style={{ cursor: 'pointer' }} variant="light" color="orange" onClick={() => setFilters({ expiry: 'soon' })}>{t('countExpiring', { n: s.insuranceSoon + s.inspectionSoon })}</Badge>}
          {s.insuranceExpired + s.inspectionExpired > 0 && <Badge component="button" style={{ cursor: 'pointer' }} variant="light" color="red" onClick={() => setFilters({ expiry: 'expired' })}>{t('countExpired', { n: s.insuranceExpired + s.inspectionExpired })}</Badge>}
        </Group>
      )}
      {moveButton}
    </Group>
  );

  return (
    <ListPage<Vehicle>
      route={ROUTE}
      pageId="information-vehicle"
      title={t('title')}
      header={header}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      filters={filterInputs}
      fetchPage={(q) => vehicleApi.page({ ...q, ...filters, ...onLine, keyword: q.keyword || undefined }).then((p) => {
        setRows(p.records);
        return p;
      })}
      scope={{ companyId, ...filters, ...onLine }}
      exportJob={(q) => vehicleApi.exportJob({ ...filters, ...onLine, keyword: q.keyword || undefined })}
      importCall={{ job: vehicleApi.importJob, call: vehicleApi.import, template: vehicleApi.template, maxRows: L.importRowsMax }}
      columns={columns}
      actionsWidth={200}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(vehicle) => setDialog({ kind: 'edit', vehicle })}
      remove={{
        name: (v) => v.vehiidno, message: (v) => t('deleteConfirm', { name: v.vehiidno }), call: (v) => vehicleApi.remove([v.id]),
        done: () => void status.refetch(),
      }}
    >
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <VehicleForm
          vehicle={dialog.kind === 'edit' ? dialog.vehicle : undefined}
          companyId={companyId ?? undefined}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void invalidate();
          }}
        />
      )}
      {dialog?.kind === 'faceSync' && <FaceSyncDialog vehicles={dialog.vehicles} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'move' && (
        <MoveDialog
          vehicles={[...selected.values()]}
          onClose={() => setDialog(undefined)}
          onMoved={() => {
            setDialog(undefined);
            setSelected(new Map());
            void invalidate();
          }}
        />
      )}
    </ListPage>
  );
}
