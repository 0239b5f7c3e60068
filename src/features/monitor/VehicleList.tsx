/**
 * The virtualised vehicle list of the current state tab. Rows are ids read from the controller;
 * each visible row asks the worker's directory for its plate (batched per render), so only the
 * ~30 rows on screen ever exist as objects.
 */
import { memo, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Checkbox, Group, Text, UnstyledButton } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { MonitorController } from './monitor-controller.ts';
import { STATE_CSS } from './palette.ts';
import { MONITOR_NS } from './messages.ts';
import type { VehicleState } from '../../../domain/vehicle/state.ts';

const ROW_HEIGHT = 30;

export interface VehicleListProps {
  controller: MonitorController;
  /** Bumps when rows or plates changed (from the panel snapshot). */
  version: number;
  length: number;
  selected: ReadonlySet<number>;
  focused: number;
  onToggle: (vehicleId: number) => void;
  onOpen: (vehicleId: number) => void;
  /** Right-click on a row: the vehicle menu at the viewport point. */
  onMenu?: (vehicleId: number, x: number, y: number) => void;
}

export function VehicleList({ controller, version, length, selected, focused, onToggle, onOpen, onMenu }: VehicleListProps) {
  const t = useT(MONITOR_NS);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this component
  const virtualizer = useVirtualizer({ count: length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  // A vehicle chosen elsewhere (search, tree, map) scrolls into view, so its row can be right-clicked.
  useEffect(() => {
    if (focused < 0) return;
    const row = controller.rowOf(focused);
    if (row >= 0) virtualizer.scrollToIndex(row, { align: 'center' });
  }, [focused, controller, virtualizer]);
  if (length === 0) {
    return (
      <Text size="sm" c="dimmed" p="sm" data-testid="vehicle-list-empty">
        {t('empty')}
      </Text>
    );
  }
  return (
    <div ref={scrollRef} style={{ flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="vehicle-list" data-length={length}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const id = controller.listId(item.index);
          const entry = controller.entry(id);
          return (
            <Row
              key={item.key}
              top={item.start}
              id={id}
              plate={entry?.plate}
              state={controller.stateOf(id)}
              checked={selected.has(id)}
              focused={focused === id}
              version={version}
              onToggle={onToggle}
              onOpen={onOpen}
              onMenu={onMenu}
              stateLabel={(s) => t(`state.${s}`)}
            />
          );
        })}
      </div>
    </div>
  );
}

interface RowProps {
  top: number;
  id: number;
  plate: string | undefined;
  state: number;
  checked: boolean;
  focused: boolean;
  version: number;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
  onMenu: ((id: number, x: number, y: number) => void) | undefined;
  stateLabel: (s: number) => string;
}

const Row = memo(function Row({ top, id, plate, state, checked, focused, onToggle, onOpen, onMenu, stateLabel }: RowProps) {
  return (
    <Group
      gap={6}
      wrap="nowrap"
      px="xs"
      data-testid="vehicle-row"
      data-vehicle-id={id}
      onContextMenu={
        onMenu
          ? (e) => {
              e.preventDefault();
              onMenu(id, e.clientX, e.clientY);
            }
          : undefined
      }
      style={{
        position: 'absolute',
        top,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
        background: focused ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <Checkbox size="xs" checked={checked} onChange={() => onToggle(id)} aria-label={plate ?? String(id)} />
      <UnstyledButton onClick={() => onOpen(id)} style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" truncate>
          {plate ?? `#${id}`}
        </Text>
      </UnstyledButton>
      {state >= 0 ? (
        <Text size="xs" style={{ color: STATE_CSS[state as VehicleState], flex: 'none' }}>
          {stateLabel(state)}
        </Text>
      ) : null}
    </Group>
  );
});
