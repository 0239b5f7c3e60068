import { useState } from 'react';
import { Badge, Text } from '@mantine/core';
import { DEVICE_TYPE_LIMITS } from '../../../domain/device-type/limits.ts';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { deviceTypeApi, type DeviceType } from './api.ts';
import { PROTOCOL_LABEL } from './device-type-form.ts';
import { DeviceTypeForm } from './DeviceTypeForm.tsx';
import { DEVICE_TYPE_NS } from './messages.ts';

const ROUTE = '/information/deviceType';

type Dialog = { kind: 'create' } | { kind: 'edit'; deviceType: DeviceType } | undefined;

/**
 * /information/deviceType: the terminal models of the company picked in the tree (and below it), with
 * create, edit, delete, .xlsx import (template included) and export.
 */
export function DeviceTypePage() {
  const t = useT(DEVICE_TYPE_NS);
  const { companyId } = useCompanySelection();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const invalidate = useInvalidate(ROUTE);

  const columns: KitColumn<DeviceType>[] = [
    { key: 'devTypeName', title: t('name'), minWidth: 140, maxWidth: 280, render: (d) => <Text size="sm" fw={500}>{d.devTypeName}</Text> },
    { key: 'protocol', title: t('protocol'), minWidth: 120, maxWidth: 150, render: (d) => <Badge variant="light" size="sm">{PROTOCOL_LABEL[d.protocol]}</Badge> },
    { key: 'makerId', title: t('makerId'), minWidth: 90, maxWidth: 140, render: (d) => d.makerId },
    { key: 'model', title: t('model'), minWidth: 120, maxWidth: 260, render: (d) => d.model },
    { key: 'remark', title: t('remark'), minWidth: 140, maxWidth: 400, render: (d) => d.remark },
    { key: 'updateTime', title: t('updateTime'), minWidth: 130, maxWidth: 170, render: (d) => formatTime(d.updateTime) },
  ];

  return (
    <ListPage<DeviceType>
      route={ROUTE}
      pageId="information-device-type"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      fetchPage={(q) => deviceTypeApi.page({ ...q, keyword: q.keyword || undefined })}
      scope={{ companyId }}
      exportJob={(q) => deviceTypeApi.exportJob({ keyword: q.keyword || undefined })}
      importCall={{ call: deviceTypeApi.import, template: deviceTypeApi.template, maxRows: DEVICE_TYPE_LIMITS.importRowsMax }}
      columns={columns}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(deviceType) => setDialog({ kind: 'edit', deviceType })}
      remove={{ name: (d) => d.devTypeName, message: (d) => t('deleteConfirm', { name: d.devTypeName }), call: (d) => deviceTypeApi.remove([d.id]) }}
    >
      {dialog && (
        <DeviceTypeForm
          deviceType={dialog.kind === 'edit' ? dialog.deviceType : undefined}
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
