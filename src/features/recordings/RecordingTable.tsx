/**
 * A terminal's recording list (0x1205 answer) on the kit's `RowsTable`, shared by the recordings page
 * (play) and the recording-upload page (upload this file): channel, start, end, duration, alarm and
 * size, each between its min and max width, the page's action pinned right.
 */
import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { formatTime } from '../track/format.ts';
import type { Recording } from './api.ts';
import { RECORDINGS_NS } from './messages.ts';

/** A file size in MB with one decimal (recordings are tens to hundreds of MB). */
export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** One file's key: a terminal lists at most one file per channel and start second. */
export const recordingKey = (r: Recording) => `${r.channel}-${r.startTime}`;

export function RecordingTable({ rows, label, action, rowTestId, onRowClick, selectedKey, emptyText, height }: {
  rows: readonly Recording[];
  label: string;
  /** The page's button for one file, pinned right. */
  action: { render: (r: Recording) => ReactNode; width: number };
  /** `data-testid` of each row (e2e). */
  rowTestId: string;
  onRowClick?: (r: Recording) => void;
  selectedKey?: string | undefined;
  emptyText: string;
  height?: number;
}) {
  const t = useT(RECORDINGS_NS);
  const columns: KitColumn<Recording>[] = [
    { key: 'channel', title: t('col.channel'), minWidth: 70, maxWidth: 100, render: (r) => t('channelName', { n: r.channel }) },
    { key: 'start', title: t('col.start'), minWidth: 150, maxWidth: 180, render: (r) => formatTime(r.startTime) },
    { key: 'end', title: t('col.end'), minWidth: 150, maxWidth: 180, render: (r) => formatTime(r.endTime) },
    { key: 'duration', title: t('col.duration'), minWidth: 80, maxWidth: 110, align: 'right', render: (r) => t('minutes', { n: Math.round((r.endTime - r.startTime) / 60_000) }) },
    { key: 'alarm', title: t('col.alarm'), minWidth: 70, maxWidth: 100, render: (r) => r.alarms.length > 0 && <Badge size="xs" color="red">{t('alarm')}</Badge> },
    { key: 'size', title: t('col.size'), minWidth: 90, maxWidth: 120, align: 'right', render: (r) => mb(r.fileSize) },
  ];
  return (
    <RowsTable
      rows={rows} columns={columns} rowKey={recordingKey} label={label} actions={action} emptyText={emptyText}
      onRowClick={onRowClick} selectedKey={selectedKey} rowAttributes={() => ({ 'data-testid': rowTestId })} height={height}
    />
  );
}
