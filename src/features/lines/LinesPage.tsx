import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { lineApi, type Line } from './api.ts';
import { LineEditor, LINES_ROUTE } from './LineEditor.tsx';
import { LineForm } from './LineForm.tsx';
import { LINES_NS } from './messages.ts';

type Dialog = { kind: 'create' } | { kind: 'edit'; line: Line } | { kind: 'stations'; line: Line } | undefined;

/**
 * /information/lineManagement: the lines of the company picked in the tree (and below it) with their
 * station counts, lengths and vehicles; create, edit, delete (refused while vehicles are on the line),
 * and the line editor (stations on the map per direction, vehicles on the line). Every change reloads
 * the company tree, whose L nodes are the lines.
 */
export function LinesPage() {
  const t = useT(LINES_NS);
  const { companyId } = useCompanySelection();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [treeToken, setTreeToken] = useState(0);
  const invalidate = useInvalidate(LINES_ROUTE);
  const changed = () => {
    void invalidate();
    setTreeToken((n) => n + 1);
  };

  const columns: KitColumn<Line>[] = [
    { key: 'name', title: t('name'), minWidth: 120, maxWidth: 240, render: (l) => <Text size="sm" fw={500}>{l.name}</Text> },
    { key: 'code', title: t('code'), minWidth: 80, maxWidth: 140, render: (l) => l.code },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 240, render: (l) => l.companyName },
    { key: 'vehicleCount', title: t('vehicles'), minWidth: 70, maxWidth: 100, render: (l) => l.vehicleCount },
    { key: 'stations', title: t('stations'), minWidth: 120, maxWidth: 150, render: (l) => `${l.upStationCount} / ${l.downStationCount}` },
    { key: 'length', title: t('length'), minWidth: 130, maxWidth: 170, render: (l) => `${l.upLengthKm.toFixed(1)} / ${l.downLengthKm.toFixed(1)} km` },
    { key: 'remark', title: t('remark'), minWidth: 140, maxWidth: 360, render: (l) => l.remark },
    { key: 'updateTime', title: t('updateTime'), minWidth: 130, maxWidth: 170, render: (l) => formatTime(l.updateTime) },
  ];

  return (
    <ListPage<Line>
      route={LINES_ROUTE}
      pageId="information-line-management"
      title={t('title')}
      tree={{ refreshToken: treeToken }}
      searchPlaceholder={t('keywordPlaceholder')}
      fetchPage={(q) => lineApi.page({ ...q, keyword: q.keyword || undefined })}
      scope={{ companyId }}
      columns={columns}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(line) => setDialog({ kind: 'edit', line })}
      actionsWidth={260}
      rowActions={(line) => (
        <Button size="compact-xs" variant="light" color="teal" onClick={() => setDialog({ kind: 'stations', line })} data-testid="line-open-editor">
          {t('open')}
        </Button>
      )}
      remove={{
        name: (l) => l.name,
        message: (l) => (l.vehicleCount > 0 ? t('deleteHasVehicles', { name: l.name, count: l.vehicleCount }) : t('deleteConfirm', { name: l.name })),
        call: (l) => lineApi.remove([l.id]),
        done: () => setTreeToken((n) => n + 1),
      }}
    >
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <LineForm
          line={dialog.kind === 'edit' ? dialog.line : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={(line) => {
            changed();
            // A new line goes straight on to its stations.
            setDialog(dialog.kind === 'create' ? { kind: 'stations', line } : undefined);
          }}
        />
      )}
      {dialog?.kind === 'stations' && <LineEditor line={dialog.line} onClose={() => setDialog(undefined)} onChanged={changed} />}
    </ListPage>
  );
}
