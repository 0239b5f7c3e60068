/**
 * Frame query (spec §5): the operator drags a rectangle on the map; a complete one queries
 * searchFrameVehicles (WGS-84 bounds, whatever the display CRS) and lists the vehicles inside.
 * A click, a line, or a drag released outside the map is refused with 请绘制完整的矩形.
 */
import { useRef, useState, type PointerEvent } from 'react';
import { notifications } from '@mantine/notifications';
import { CloseButton, Group, Loader, Paper, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { MapHandle } from '../map/MapView.tsx';
import { searchFrameVehicles, type RealtimeRecord } from './api.ts';
import { rectangleFromDrag, type Bounds } from './rectangle.ts';
import { STATE_CSS } from './palette.ts';
import { MONITOR_NS } from './messages.ts';
import type { VehicleState } from '../../../domain/vehicle/state.ts';
import { LAYERS } from '../../shell/layers.ts';

export interface FrameDrawProps {
  map: () => MapHandle | null;
  onDone: (result: { total: number; records: RealtimeRecord[] } | 'loading' | null) => void;
  /** Takes the complete rectangle instead of querying searchFrameVehicles (track search draws the same way). */
  onRectangle?: (bounds: Bounds) => void;
}

/** A transparent layer over the map that captures one drag. Escape or an incomplete drag ends it. */
export function FrameDraw({ map, onDone, onRectangle }: FrameDrawProps) {
  const t = useT(MONITOR_NS);
  const start = useRef<[number, number] | undefined>(undefined);
  const [rect, setRect] = useState<{ x: number; y: number; w: number; h: number } | null>(null);

  const local = (e: PointerEvent<HTMLDivElement>): [number, number] => {
    const r = e.currentTarget.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  const incomplete = () => {
    notifications.show({ color: 'red', autoClose: 2000, message: t('incompleteRectangle') });
    start.current = undefined;
    setRect(null);
  };
  const finish = (end: [number, number] | undefined) => {
    const handle = map();
    const s = start.current;
    const result = rectangleFromDrag(s, end, s && handle ? handle.unproject(s[0], s[1]) : undefined, end && handle ? handle.unproject(end[0], end[1]) : undefined);
    start.current = undefined;
    setRect(null);
    if (!result.ok) {
      incomplete();
      return;
    }
    if (onRectangle) {
      onRectangle(result.bounds);
      return;
    }
    onDone('loading');
    searchFrameVehicles(result.bounds).then(onDone, () => onDone(null));
  };

  return (
    <div
      data-testid="frame-draw"
      tabIndex={-1}
      style={{ position: 'absolute', inset: 0, cursor: 'crosshair', zIndex: LAYERS.mapMenu, touchAction: 'none' }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone(null);
      }}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = local(e);
        setRect({ x: start.current[0], y: start.current[1], w: 0, h: 0 });
      }}
      onPointerMove={(e) => {
        const s = start.current;
        if (!s) return;
        const [x, y] = local(e);
        setRect({ x: Math.min(s[0], x), y: Math.min(s[1], y), w: Math.abs(x - s[0]), h: Math.abs(y - s[1]) });
      }}
      onPointerUp={(e) => {
        if (!start.current) return;
        const p = local(e);
        const r = e.currentTarget.getBoundingClientRect();
        // Released outside the map: the rectangle has no second corner on the map.
        finish(p[0] < 0 || p[1] < 0 || p[0] > r.width || p[1] > r.height ? undefined : p);
      }}
      onPointerCancel={() => incomplete()}
    >
      <Paper shadow="sm" px="sm" py={4} style={{ position: 'absolute', bottom: 8, left: '50%', transform: 'translateX(-50%)', pointerEvents: 'none' }}>
        <Text size="sm">{t('frameHint')}</Text>
      </Paper>
      {rect ? (
        <div
          data-testid="frame-rect"
          style={{ position: 'absolute', left: rect.x, top: rect.y, width: rect.w, height: rect.h, border: '2px solid #1e6edc', background: 'rgba(30,110,220,0.12)' }}
        />
      ) : null}
    </div>
  );
}

export interface FrameResultProps {
  result: { total: number; records: RealtimeRecord[] } | 'loading';
  onClose: () => void;
  onOpen: (vehicleId: number) => void;
}

export function FrameResult({ result, onClose, onOpen }: FrameResultProps) {
  const t = useT(MONITOR_NS);
  return (
    <Paper shadow="md" p="sm" w={280} withBorder data-testid="frame-result">
      <Group justify="space-between" mb={4}>
        {result === 'loading' ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('loading')}</Text>
          </Group>
        ) : (
          <Text size="sm" fw={600} data-testid="frame-total" data-total={result.total}>
            {t('frameResult', { total: result.total })}
            {result.records.length < result.total ? t('frameShown', { shown: result.records.length }) : ''}
          </Text>
        )}
        <CloseButton onClick={onClose} aria-label={t('close')} />
      </Group>
      {result !== 'loading' ? (
        <ScrollArea.Autosize mah={300}>
          <Stack gap={0}>
            {/* At most 5000 rows from the server; a plain list is fine at that size inside a 300-px box. */}
            {result.records.slice(0, 500).map((r) => (
              <UnstyledButton key={r.vehicleId} onClick={() => onOpen(r.vehicleId)} data-testid="frame-row" data-vehicle-id={r.vehicleId} py={2}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm">{r.vehiidno}</Text>
                  <Text size="xs" style={{ color: STATE_CSS[r.state as VehicleState] }}>
                    {t(`state.${r.state}`)}
                  </Text>
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      ) : null}
    </Paper>
  );
}
