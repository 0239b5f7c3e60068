import { useState } from 'react';
import { Badge, Button, Select, Text, Tooltip } from '@mantine/core';
import { DEVICE_EDITIONS, DEVICE_LIMITS, type DeviceEdition } from '../../../domain/fleet/limits.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ConfirmButton } from '../../kit/ConfirmButton.tsx';
import { importJob } from '../../kit/import-job.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { deviceApi, type Device, type DeviceFilters, type RegisterRefusal } from './api.ts';
import { OneLine } from '../installations/OneLine.tsx';
import { dayText, EDITION_LABEL, type DeviceFormValues } from './device-form.ts';
import { DeviceForm, useDeviceTypes } from './DeviceForm.tsx';
import { DEVICE_NS } from './messages.ts';
import { RefusalsDialog } from './RefusalsDialog.tsx';

const ROUTE = '/information/device';

type Dialog = { kind: 'create'; prefill?: Partial<DeviceFormValues> } | { kind: 'edit'; device: Device } | { kind: 'refusals' } | undefined;

/** The form's prefill from a refused registration: the number and what the terminal said it is. */
export function prefillFromRefusal(r: RegisterRefusal): Partial<DeviceFormValues> {
  const ascii = (s: string) => s.replace(/[^\x20-\x7E]/g, '').slice(0, DEVICE_LIMITS.modelMax);
  return { deviceNo: r.deviceNo, model: ascii(r.model), terminalId: ascii(r.terminalId), maker: r.makerId.slice(0, DEVICE_LIMITS.makerMax) };
}

/**
 * /information/device: the terminals of the company picked in the tree (and below it), installed on a
 * vehicle or in stock, auto-registered ones "unassigned" until an operator installs them; create,
 * edit (renumbering follows to the vehicle), delete (not while installed), .xlsx import and export,
 * registration reset, and the refused registrations with 添加为设备.
 */
export function DevicePage() {
  const t = useT(DEVICE_NS);
  const { companyId } = useCompanySelection();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [protocol, setProtocol] = useState<string | null>(null);
  const [deviceTypeId, setDeviceTypeId] = useState<string | null>(null);
  /** Installed or not: 'yes', 'no', or 'unassigned' (auto-registered, not installed). */
  const [bound, setBound] = useState<string | null>(null);
  const invalidate = useInvalidate(ROUTE);
  const types = useDeviceTypes();

  const filters: DeviceFilters = {
    protocol: protocol ? (Number(protocol) as DeviceEdition) : undefined,
    deviceTypeId: deviceTypeId ? Number(deviceTypeId) : undefined,
    bound: bound === 'yes' ? true : bound === 'no' ? false : undefined,
    unassigned: bound === 'unassigned' || undefined,
  };

  const sourceLabel = (d: Device) => (d.source === 'auto' ? t('sourceAuto') : d.source === 'import' ? t('sourceImport') : t('sourceOperator'));
  // One line per row: a long value ends in an ellipsis, whole in its tooltip.
  const columns: KitColumn<Device>[] = [
    { key: 'deviceNo', title: t('deviceNo'), minWidth: 120, maxWidth: 150, render: (d) => <Text size="sm" fw={500} ff="monospace">{d.deviceNo}</Text> },
    { key: 'terminalId', title: t('terminalId'), minWidth: 90, maxWidth: 160, render: (d) => <OneLine text={d.terminalId} /> },
    { key: 'model', title: t('model'), minWidth: 90, maxWidth: 160, render: (d) => <OneLine text={d.model} /> },
    { key: 'maker', title: t('maker'), minWidth: 90, maxWidth: 180, render: (d) => <OneLine text={d.maker} /> },
    { key: 'deviceType', title: t('deviceType'), minWidth: 100, maxWidth: 200, render: (d) => <OneLine text={d.deviceTypeName} /> },
    { key: 'protocol', title: t('protocol'), minWidth: 120, maxWidth: 140, render: (d) => <Badge variant="light" size="sm">{EDITION_LABEL[d.protocol]}</Badge> },
    { key: 'channelCount', title: t('channelCount'), minWidth: 60, maxWidth: 80, align: 'right', render: (d) => d.channelCount },
    { key: 'simIccid', title: t('simIccid'), minWidth: 170, maxWidth: 190, render: (d) => d.simIccid },
    { key: 'installDate', title: t('installDate'), minWidth: 100, maxWidth: 120, render: (d) => dayText(d.installDate) },
    {
      key: 'vehicle', title: t('vehicle'), minWidth: 100, maxWidth: 140,
      render: (d) => (d.plate ?? (d.unassigned ? <Badge color="orange" variant="light" size="sm" data-testid="device-unassigned">{t('unassigned')}</Badge> : t('notBound'))),
    },
    {
      key: 'online', title: t('online'), minWidth: 70, maxWidth: 90,
      render: (d) => <Badge color={d.online ? 'green' : 'gray'} variant="dot" size="sm" data-online={d.online ? 1 : 0}>{d.online ? t('isOnline') : t('isOffline')}</Badge>,
    },
    {
      key: 'registration', title: t('registration'), minWidth: 80, maxWidth: 110,
      render: (d) => (
        <Tooltip label={t('lastAuth', { time: formatTime(d.authTime) })} disabled={d.authTime === null}>
          <Badge color={d.registered ? 'blue' : 'gray'} variant="light" size="sm">{d.registered ? t('registered') : t('notRegistered')}</Badge>
        </Tooltip>
      ),
    },
    { key: 'source', title: t('source'), minWidth: 80, maxWidth: 110, render: (d) => <OneLine text={sourceLabel(d)} /> },
    { key: 'company', title: t('company'), minWidth: 100, maxWidth: 200, render: (d) => <OneLine text={d.companyName} /> },
    { key: 'remark', title: t('remark'), minWidth: 100, maxWidth: 300, render: (d) => <OneLine text={d.remark} /> },
  ];

  // The screen's filters after the keyword box (the kit's filter bar wraps them onto a second line when narrow).
  const filterInputs = (
    <>
      <Select
        size="sm" w={130} clearable placeholder={t('anyEdition')} value={protocol} onChange={setProtocol} aria-label={t('protocol')}
        data={DEVICE_EDITIONS.map((e) => ({ value: String(e), label: EDITION_LABEL[e] }))} data-testid="device-filter-protocol"
      />
      <Select
        size="sm" w={170} clearable searchable placeholder={t('anyType')} value={deviceTypeId} onChange={setDeviceTypeId} aria-label={t('deviceType')}
        data={(types.data?.records ?? []).map((d) => ({ value: String(d.id), label: d.devTypeName }))} data-testid="device-filter-type"
      />
      <Select
        size="sm" w={130} clearable placeholder={t('anyBound')} value={bound} onChange={setBound} aria-label={t('vehicle')}
        data={[{ value: 'yes', label: t('boundYes') }, { value: 'no', label: t('boundNo') }, { value: 'unassigned', label: t('unassigned') }]}
        data-testid="device-filter-bound"
      />
    </>
  );
  const refusals = (
    <Perm route={ROUTE} button="create">
      <Button size="sm" variant="light" color="orange" onClick={() => setDialog({ kind: 'refusals' })} data-testid="device-refusals-open">{t('refusals')}</Button>
    </Perm>
  );

  return (
    <ListPage<Device>
      route={ROUTE}
      pageId="information-device"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      filters={filterInputs}
      toolbar={refusals}
      fetchPage={(q) => deviceApi.page({ ...q, keyword: q.keyword || undefined, ...filters })}
      scope={{ companyId, ...filters }}
      exportJob={(q) => deviceApi.exportJob({ keyword: q.keyword || undefined, ...filters })}
      importCall={{ job: importJob('/service-priv/device/batchimp', '/service-priv/device/batch/status'), template: deviceApi.template, maxRows: DEVICE_LIMITS.importRowsMax }}
      columns={columns}
      // 重置注册, 修改, 删除 and the audit slot's 操作记录 on one line
      actionsWidth={290}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(device) => setDialog({ kind: 'edit', device })}
      rowActions={(d) => (d.registered ? (
        <Perm route={ROUTE} button="update">
          <ConfirmButton size="compact-xs" variant="subtle" color="orange" message={t('resetConfirm', { no: d.deviceNo })} onConfirm={async () => {
            await deviceApi.resetRegistration(d.id);
            await invalidate();
          }} data-testid="device-reset-registration">
            {t('resetRegistration')}
          </ConfirmButton>
        </Perm>
      ) : null)}
      remove={{ name: (d) => d.deviceNo, message: (d) => t('deleteConfirm', { no: d.deviceNo }), call: (d) => deviceApi.remove([d.id]) }}
    >
      {dialog?.kind === 'refusals' && (
        <RefusalsDialog onClose={() => setDialog(undefined)} onAdd={(r) => setDialog({ kind: 'create', prefill: prefillFromRefusal(r) })} />
      )}
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <DeviceForm
          device={dialog.kind === 'edit' ? dialog.device : undefined}
          prefill={dialog.kind === 'create' ? dialog.prefill : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void invalidate();
          }}
        />
      )}
    </ListPage>
  );
}
