/**
 * /monitor/shape_map (围栏管理): the company tree, a server-paged list of the fences of the picked
 * company (name filter), and the map with every listed fence. Shapes are drawn with terra-draw (circle,
 * rectangle, polygon); a finished shape opens the form. The selected fence is highlighted and fitted; its
 * vertices can be edited on the map, it can be edited, deleted and sent (下发) to its bound vehicles'
 * terminals, with each terminal's answer shown live. Buttons sit behind the route's bits (api.md).
 */
import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FenceGeometry, FenceShape } from '../../../domain/fence/types.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { DeleteRowButton } from '../../kit/DeleteRowButton.tsx';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { LAYERS } from '../../shell/layers.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { formatTime } from '../system/ui/format.ts';
import { HeldList } from '../terminal-held/HeldList.tsx';
import { HeldTaskView } from '../terminal-held/HeldTaskView.tsx';
import { useHeldPage } from '../terminal-held/useHeldPage.ts';
import { fenceApi, FENCES_ROUTE, type FenceDetail, type FenceView } from './api.ts';
import { FenceForm } from './FenceForm.tsx';
import { FenceMap } from './FenceMap.tsx';
import { ruleParts } from './geometry.ts';
import { FENCES_NS } from './messages.ts';

const SHAPES: readonly FenceShape[] = ['circle', 'rect', 'polygon'];

type Dialog = { kind: 'create'; geometry: FenceGeometry } | { kind: 'edit'; fence: FenceDetail } | undefined;

export function FencesPage() {
  const t = useT(FENCES_NS);
  const page = useHeldPage<FenceView, FenceDetail>(FENCES_ROUTE, fenceApi);
  const { list, selectedId, setSelectedId, fitKey, setFitKey, taskId, error, busy, selected, detail, refresh, run, send } = page;
  const [drawing, setDrawing] = useState<FenceShape | null>(null);
  const [pending, setPending] = useState<FenceGeometry | null>(null);
  const [editing, setEditing] = useState<FenceGeometry | null>(null);
  const [dialog, setDialog] = useState<Dialog>(undefined);

  // While a shape is edited the selection stays put.
  const select = (id: number) => {
    if (!editing) page.select(id);
  };

  const saveShape = () => run(async () => {
    const f = detail.data;
    if (!f || !editing) return;
    await fenceApi.update({ id: f.id, name: f.name, geometry: editing, rule: f.rule, remark: f.remark });
    notifications.show({ color: 'green', message: t('shapeEdited'), autoClose: 2000 });
    setEditing(null);
    refresh();
  });

  const ruleText = (f: FenceView) => {
    const r = ruleParts(f.rule);
    const parts = [...r.flags.map((k) => t(`ruleLabels.${k}`)), ...(r.speed ? [t('speedSummary', r.speed)] : []), r.window ?? t('alwaysOn')];
    return parts.join(' · ');
  };

  // The tree and the fence list share the left column, so the map keeps its width beside a docked alarm pop-up at 1280 px.
  const aside = (
    <Stack gap="xs" h="100%" style={{ minHeight: 0 }}>
      <div style={{ height: '34%', minHeight: 150, display: 'flex', flexDirection: 'column' }}>
        <CompanyTreePanel />
      </div>
      <HeldList ns={FENCES_NS} page={page} testId="fence-list" keywordTestId="fence-keyword">
        {list.records.map((f) => (
          <UnstyledButton key={f.id} onClick={() => select(f.id)} data-testid="fence-row" data-fence-id={f.id} data-selected={f.id === selectedId}>
            <Paper withBorder p={8} bg={f.id === selectedId ? 'var(--mantine-primary-color-light)' : undefined}>
              <Group justify="space-between" wrap="nowrap" gap={6}>
                <Text size="sm" fw={600} truncate>{f.name}</Text>
                <Badge size="sm" variant="light">{t(`shapes.${f.shape}`)}</Badge>
              </Group>
              <Text size="xs" c="dimmed" lineClamp={2}>{ruleText(f)}</Text>
              <Group justify="space-between" gap={6}>
                <Text size="xs">{t('vehicleCount', { n: f.vehicleCount })}</Text>
                <Text size="xs" c="dimmed">{formatTime(f.updateTime)}</Text>
              </Group>
            </Paper>
          </UnstyledButton>
        ))}
      </HeldList>
    </Stack>
  );

  return (
    <PageFrame pageId="monitor-shape-map" aside={aside} title={t('title')}
      dialogs={dialog && (
        <FenceForm
          fence={dialog.kind === 'edit' ? dialog.fence : undefined}
          drawn={dialog.kind === 'create' ? dialog.geometry : null}
          onClose={() => {
            setDialog(undefined);
            setPending(null);
          }}
          onSaved={(f) => {
            setDialog(undefined);
            setPending(null);
            setSelectedId(f.id);
            setFitKey((k) => k + 1);
            refresh();
          }}
        />
      )}
    >
      <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
        <div style={{ flex: 1, minHeight: 200, position: 'relative' }} data-testid="fence-map">
          <FenceMap
            fences={list.records}
            selectedId={selectedId}
            onSelect={select}
            drawing={drawing}
            onDrawn={(g) => {
              setDrawing(null);
              setPending(g);
              setDialog({ kind: 'create', geometry: g });
            }}
            pending={pending}
            editing={editing}
            onEdited={setEditing}
            fitKey={`${fitKey}:${selected ? 1 : 0}`}
          />
          <Paper withBorder shadow="xs" p={6} style={{ position: 'absolute', top: 8, left: 8, zIndex: LAYERS.mapPanel, maxWidth: 'calc(100% - 16px)' }} data-testid="fence-toolbar">
            {editing ? (
              <Group gap={6}>
                <Text size="xs">{t('editShapeHint')}</Text>
                <Button size="compact-sm" loading={busy} onClick={() => void saveShape()} data-testid="fence-save-shape">{t('saveShape')}</Button>
                <Button size="compact-sm" variant="default" onClick={() => setEditing(null)}>{t('cancelEdit')}</Button>
              </Group>
            ) : (
              <Perm route={FENCES_ROUTE} button="create">
                <Group gap={6}>
                  {SHAPES.map((s) => (
                    <Button key={s} size="compact-sm" variant={drawing === s ? 'filled' : 'light'} onClick={() => setDrawing(drawing === s ? null : s)} data-testid={`fence-draw-${s}`}>{t(`draw.${s}`)}</Button>
                  ))}
                  {drawing && <Button size="compact-sm" variant="default" onClick={() => setDrawing(null)}>{t('draw.cancel')}</Button>}
                </Group>
              </Perm>
            )}
            {drawing && <Text size="xs" c="dimmed" mt={4} maw={420}>{t('draw.hint')}</Text>}
          </Paper>
        </div>
        {selected && (
          <Paper withBorder p={8} data-testid="fence-selected">
            <Stack gap={6}>
              <Text size="sm" fw={600} truncate>{selected.name}</Text>
              <Group gap={4}>
                <Perm route={FENCES_ROUTE} button="update">
                  <Button size="compact-xs" variant="light" disabled={!detail.data || editing !== null} onClick={() => detail.data && setDialog({ kind: 'edit', fence: detail.data })} data-testid="fence-edit">{t('edit')}</Button>
                </Perm>
                <Perm route={FENCES_ROUTE} button="update">
                  <Button size="compact-xs" variant="light" disabled={editing !== null || drawing !== null} onClick={() => setEditing(selected.geometry)} data-testid="fence-edit-shape">{t('editShape')}</Button>
                </Perm>
                <Perm route={FENCES_ROUTE} button="send">
                  <Button size="compact-xs" color="teal" loading={busy} disabled={editing !== null} onClick={() => void send()} data-testid="fence-send">{t('send')}</Button>
                </Perm>
                <DeleteRowButton route={FENCES_ROUTE} message={t('deleteConfirm', { name: selected.name })} label={t('delete')} deletedMessage={t('deleted')}
                  onDelete={() => fenceApi.remove([selected.id])} onDeleted={page.deselect} />
              </Group>
              {error && <Alert color="red" p={6} data-testid="fence-error">{error}</Alert>}
              {taskId !== null && <HeldTaskView taskId={taskId} load={fenceApi.task} kind={FENCES_ROUTE} ns={FENCES_NS} testId="fence-task" table onSettled={refresh} />}
            </Stack>
          </Paper>
        )}
      </Stack>
    </PageFrame>
  );
}
