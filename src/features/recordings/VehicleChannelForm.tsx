/**
 * The left column of the terminal-recording pages (recordings on the terminal, recordings pulled to the
 * server), for the kit `PageFrame`'s aside: the company tree to pick a vehicle, its channels (from `service-priv/channel/device`: the
 * device record or the terminal's own report; none invented when neither is known, and then the form
 * says why) and a period; the page adds its buttons. Test ids are `<prefix>-form`,
 * `-vehicle`, `-channel`, `-start`, `-end`.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { parseNodeId, type TreeNode } from '../../../domain/company/tree-node.ts';
import type { QuickRange } from '../../../domain/period/period.ts';
import { noCameraMessage } from '../../../domain/video/channels.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { PeriodPicker } from '../../kit/period-picker/index.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { toLocalInput } from '../track/format.ts';
import { fetchChannels, type DeviceChannel, type DeviceChannels } from '../video/api.ts';
import { RECORDINGS_NS } from './messages.ts';

export interface PickedVehicle {
  id: number;
  plate: string;
}

export interface VehicleChannelFields {
  vehicle: PickedVehicle | null;
  channels: DeviceChannel[];
  /** What the server knows of the picked vehicle's channels; null until loaded (or when loading failed). */
  known: DeviceChannels | null;
  onSelect(node: TreeNode): void;
  channel: string;
  onChannel(v: string): void;
  start: string;
  onStart(v: string): void;
  end: string;
  onEnd(v: string): void;
}

/**
 * The form's state: the vehicle picked in the tree, its channels, the channel ('0' = all) and the
 * period as local inputs (start at `startAt()`, end now). `onPick` runs when another vehicle is picked.
 */
export function useVehicleChannelForm({ channel: firstChannel, startAt, onPick }: { channel: string; startAt: () => number; onPick?: () => void }): VehicleChannelFields {
  const [vehicle, setVehicle] = useState<PickedVehicle | null>(null);
  const [known, setKnown] = useState<DeviceChannels | null>(null);
  const [channel, setChannel] = useState(firstChannel);
  const [start, setStart] = useState(() => toLocalInput(startAt()));
  const [end, setEnd] = useState(() => toLocalInput(Date.now()));
  const onSelect = useCallback(
    (node: TreeNode) => {
      const parsed = parseNodeId(node.id);
      if (!parsed || parsed.nodeType !== 'V') return;
      setVehicle({ id: parsed.id, plate: node.name });
      onPick?.();
      setKnown(null);
      fetchChannels(parsed.id).then(
        (d) => {
          setKnown(d);
          // A form without "all channels" starts on the vehicle's first channel, not on one it may lack.
          setChannel((c) => (c === '0' || d.channels.some((x) => String(x.channel) === c) || d.channels.length === 0 ? c : String(d.channels[0]!.channel)));
        },
        () => setKnown(null),
      );
    },
    [onPick],
  );
  return { vehicle, channels: known?.channels ?? [], known, onSelect, channel, onChannel: setChannel, start, onStart: setStart, end, onEnd: setEnd };
}

export function VehicleChannelForm({ prefix, fields, allChannels, quick, children }: {
  prefix: string;
  fields: VehicleChannelFields;
  /** Offer "all channels" (value '0') first. */
  allChannels: boolean;
  /** The quick ranges that fit the page's longest period (a terminal search: 7 days; an upload: 24 hours). */
  quick: readonly QuickRange[];
  children: ReactNode;
}) {
  const { vehicle, channels, known, onSelect, channel, onChannel, start, onStart, end, onEnd } = fields;
  const t = useT(RECORDINGS_NS);
  const lang = useLang();
  const options = [
    ...(allChannels ? [{ value: '0', label: t('allChannels') }] : []),
    ...channels.map((c) => ({ value: String(c.channel), label: c.name ? `${c.channel} · ${c.name}` : t('channelName', { n: c.channel }) })),
  ];
  const missing = known && noCameraMessage(known, lang);
  return (
    <>
      <div style={{ flex: 1, minHeight: 0 }}>
        <CompanyTreePanel onSelect={onSelect} applySelection={false} />
      </div>
      <Stack gap={6} mt={8} data-testid={`${prefix}-form`}>
        <Text size="sm" fw={600} data-testid={`${prefix}-vehicle`}>
          {vehicle ? vehicle.plate : t('pickVehicle')}
        </Text>
        <Select size="xs" label={t('channel')} data={options} value={options.some((o) => o.value === channel) ? channel : null} onChange={(v) => v && onChannel(v)} allowDeselect={false} data-testid={`${prefix}-channel`} />
        {missing && (
          <Text size="xs" c="orange" data-testid={`${prefix}-no-camera`} data-source={known.source}>
            {missing}
          </Text>
        )}
        <PeriodPicker size="xs" vertical value={{ start, end }} quick={quick} showProblem={false}
          onChange={(p) => { if (p.start !== start) onStart(p.start); if (p.end !== end) onEnd(p.end); }}
          labels={{ start: t('start'), end: t('end') }} testIds={{ start: `${prefix}-start`, end: `${prefix}-end`, quick: `${prefix}-quick` }} />
        {children}
      </Stack>
    </>
  );
}
