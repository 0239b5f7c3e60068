/**
 * /monitor/videoMonitor — multichannel live video (spec §2, §4, §5, §8, §9): pick a vehicle in the
 * company tree, open its channels into a 4/9/16/25 grid (at most 25, a prompt at 20), per-window
 * main/sub stream (kept per window index), states with the spec's messages, retry, snapshot, full
 * screen, and the auto-stop prompt after the configured time.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { parseNodeId, type TreeNode } from '../../../domain/company/tree-node.ts';
import { noCameraMessage, videoChannels } from '../../../domain/video/channels.ts';
import { GRID_SIZES, promptAtMessage, videoMessage, type GridSize } from '../../../domain/video/limits.ts';
import { AUTO_STOP_MAX_MINUTES, DEFAULT_AUTO_STOP_MINUTES, ParamKeys, paramNumber } from '../../../domain/system-config/params.ts';
import { useSystemParams } from '../system-config/api.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { readLocal, writeLocal } from '../../session/storage.ts';
import { supportsWebCodecs } from '../../live/video/video-channel.ts';
import { fetchChannels, type DeviceChannels } from './api.ts';
import { VIDEO_NS } from './messages.ts';
import { VideoTile } from './VideoTile.tsx';
import { VideoWall, type ChannelRef } from './video-wall.ts';

/** Unanswered, the auto-stop prompt stops the windows after this long. */
const AUTO_STOP_ANSWER_MS = 60_000;

export function VideoMonitorPage() {
  const t = useT(VIDEO_NS);
  const lang = useLang();
  const wall = useMemo(
    () => new VideoWall({ store: { get: readLocal, set: writeLocal }, autoStopMinutes: DEFAULT_AUTO_STOP_MINUTES }),
    [],
  );
  // The auto-stop time is the system parameter (/system/param, issue 19): read when the page opens and
  // again whenever an administrator changes it (push), without a reload. The input below changes it for
  // this visit only.
  const params = useSystemParams();
  const configuredAutoStop = params ? paramNumber(params, ParamKeys.videoAutoStopMinutes, DEFAULT_AUTO_STOP_MINUTES) : undefined;
  const snap = useSyncExternalStore(wall.subscribe, wall.get);
  const [vehicle, setVehicle] = useState<{ id: number; plate: string } | null>(null);
  const [known, setKnown] = useState<DeviceChannels | 'loading' | 'failed' | null>(null);
  // Only video channels go on the wall; the list is what the device's record or its terminal says.
  const channels = known && typeof known === 'object' ? videoChannels(known) : [];
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set());
  const [autoStop, setAutoStop] = useState(() => wall.getAutoStopMinutes());
  // A new configured value (first read, or an administrator's change) replaces this visit's value.
  const [seenConfigured, setSeenConfigured] = useState<number | undefined>(undefined);
  if (configuredAutoStop !== undefined && configuredAutoStop !== seenConfigured) {
    setSeenConfigured(configuredAutoStop);
    setAutoStop(configuredAutoStop);
  }
  useEffect(() => wall.setAutoStopMinutes(autoStop), [autoStop, wall]);

  useEffect(() => {
    const timer = setInterval(() => wall.tick(), 5000);
    return () => {
      clearInterval(timer);
      wall.closeAll();
    };
  }, [wall]);

  const onSelect = useCallback((node: TreeNode) => {
    const parsed = parseNodeId(node.id);
    if (!parsed || parsed.nodeType !== 'V') return;
    setVehicle({ id: parsed.id, plate: node.name });
    setKnown('loading');
    setPicked(new Set());
    fetchChannels(parsed.id).then(
      (d) => {
        setKnown(d);
        setPicked(new Set(videoChannels(d).map((c) => c.channel)));
      },
      () => setKnown('failed'),
    );
  }, []);

  const open = useCallback(
    (refs: ChannelRef[]) => {
      const r = wall.open(refs);
      if (r.kind === 'refused') notifications.show({ color: 'red', autoClose: 2000, message: videoMessage('tooMany', lang) });
      else if (r.kind === 'confirm') {
        modals.openConfirmModal({
          title: t('promptTitle'),
          children: <Text size="sm" data-testid="video-prompt-20">{promptAtMessage(lang)}</Text>,
          labels: { confirm: t('proceed'), cancel: t('cancel') },
          onConfirm: () => void r.proceed(),
        });
      }
    },
    [wall, lang, t],
  );

  // Opened from the alarm pop-up (live / multiLive): ?vehicleId&plate[&channels=1,2] opens those cameras once.
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    const vehicleId = Number(q.get('vehicleId'));
    if (!Number.isSafeInteger(vehicleId) || vehicleId <= 0) return;
    const plate = q.get('plate') ?? `#${vehicleId}`;
    const only = (q.get('channels') ?? '').split(',').map(Number).filter((n) => n > 0);
    let cancelled = false;
    fetchChannels(vehicleId).then(
      (d) => {
        if (cancelled) return;
        setVehicle({ id: vehicleId, plate });
        setKnown(d);
        const wanted = videoChannels(d).filter((c) => only.length === 0 || only.includes(c.channel));
        setPicked(new Set(wanted.map((c) => c.channel)));
        // A camera asked for that the device does not have is said so, not opened as an empty tile.
        if (wanted.length === 0) notifications.show({ color: 'orange', message: noCameraMessage(d, lang) ?? videoMessage('noCamera', lang) });
        else open(wanted.map((c) => ({ vehicleId, plate, channel: c.channel })));
      },
      () => !cancelled && setKnown('failed'),
    );
    return () => {
      cancelled = true;
    };
    // Once per visit: the parameters are read when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const openPicked = (all: boolean) => {
    if (!vehicle) return;
    const list = channels.filter((c) => all || picked.has(c.channel));
    open(list.map((c) => ({ vehicleId: vehicle.id, plate: vehicle.plate, channel: c.channel })));
  };

  // Auto-stop: ask, and stop the windows that nobody answered for within a minute.
  const due = snap.autoStopDue;
  useEffect(() => {
    if (due.length === 0) return;
    const timer = setTimeout(() => wall.get().autoStopDue.forEach((i) => wall.close(i)), AUTO_STOP_ANSWER_MS);
    return () => clearTimeout(timer);
  }, [due, wall]);

  const cols = Math.sqrt(snap.grid);
  return (
    <Group align="stretch" gap="sm" wrap="nowrap" style={{ height: 'calc(100vh - 120px)' }}>
      <Paper withBorder p="xs" style={{ width: 280, display: 'flex', flexDirection: 'column', gap: 8 }}>
        <div style={{ flex: 1, minHeight: 0 }}>
          <CompanyTreePanel onSelect={onSelect} applySelection={false} />
        </div>
        <Stack gap={4} data-testid="video-channels">
          <Text size="sm" fw={600}>
            {vehicle ? `${vehicle.plate} · ${t('channels')}` : t('channels')}
          </Text>
          {!vehicle && <Text size="xs" c="dimmed">{t('pickVehicle')}</Text>}
          {known === 'failed' && <Alert color="red">{t('loadFailed')}</Alert>}
          {known && typeof known === 'object' && vehicle && channels.length === 0 && (
            <Text size="xs" c="orange" data-testid="video-no-camera" data-source={known.source}>
              {noCameraMessage(known, lang)}
            </Text>
          )}
          {known && typeof known === 'object' && channels.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="video-channel-source" data-source={known.source}>
              {t(`source.${known.source}`)}
            </Text>
          )}
          {channels.map((c) => (
              <Checkbox
                key={c.channel}
                size="xs"
                label={c.name || t('channelName', { n: c.channel })}
                checked={picked.has(c.channel)}
                onChange={(e) => {
                  const next = new Set(picked);
                  if (e.currentTarget.checked) next.add(c.channel);
                  else next.delete(c.channel);
                  setPicked(next);
                }}
              />
            ))}
          <Group gap={4}>
            <Button size="compact-xs" disabled={!vehicle || picked.size === 0} onClick={() => openPicked(false)} data-testid="video-open-selected">
              {t('openSelected')}
            </Button>
            <Button size="compact-xs" variant="light" disabled={!vehicle || channels.length === 0} onClick={() => openPicked(true)} data-testid="video-open-all">
              {t('openAll')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
        <Group gap="sm">
          <SegmentedControl
            size="xs"
            value={String(snap.grid)}
            onChange={(v) => wall.setGrid(Number(v) as GridSize)}
            data={GRID_SIZES.map((n) => ({ value: String(n), label: t('grid', { n }) }))}
            data-testid="video-grid"
          />
          <NumberInput
            size="xs"
            w={150}
            min={0}
            max={AUTO_STOP_MAX_MINUTES}
            label={t('autoStopMinutes')}
            value={autoStop}
            data-testid="video-autostop-minutes"
            onChange={(v) => {
              const n = typeof v === 'number' ? v : 0;
              setAutoStop(n);
              wall.setAutoStopMinutes(n);
            }}
          />
          <Button size="xs" variant="default" onClick={() => wall.closeAll()} data-testid="video-close-all">
            {t('closeAll')}
          </Button>
          <Text size="xs" c="dimmed" data-testid="video-playing">
            {snap.playing} / 25 · {t(`decoder.${supportsWebCodecs() ? 'webcodecs' : 'mse'}`)}
          </Text>
        </Group>
        <div data-testid="video-wall" data-grid={snap.grid} style={{ flex: 1, display: 'grid', gridTemplateColumns: `repeat(${cols}, 1fr)`, gridTemplateRows: `repeat(${cols}, 1fr)`, gap: 2, minHeight: 0 }}>
          {snap.windows.map((w, i) =>
            w ? (
              <VideoTile key={w.key} index={i} win={w} wall={wall} audio={snap.audioWindow === i} maximised={snap.maximised === i} hidden={snap.maximised >= 0 && snap.maximised !== i} />
            ) : (
              <div key={`empty-${i}`} data-testid={`video-window-${i}`} data-state="empty" style={{ background: '#111', display: snap.maximised >= 0 ? 'none' : 'flex', alignItems: 'center', justifyContent: 'center' }}>
                <Text size="xs" c="dimmed">
                  {t('empty')}
                </Text>
              </div>
            ),
          )}
        </div>
      </Stack>
      <Modal opened={due.length > 0} onClose={() => due.forEach((i) => wall.keepPlaying(i))} title={t('autoStopTitle', { minutes: autoStop })} data-testid="video-autostop">
        <Stack gap="xs">
          <Text size="sm">{t('autoStopBody')}</Text>
          {due.map((i) => {
            const w = snap.windows[i];
            return w ? <Text key={i} size="xs">{`${w.plate} · ${t('channelName', { n: w.channel })}`}</Text> : null;
          })}
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={() => due.forEach((i) => wall.close(i))} data-testid="video-autostop-stop">
              {t('stopNow')}
            </Button>
            <Button size="xs" onClick={() => due.forEach((i) => wall.keepPlaying(i))} data-testid="video-autostop-keep">
              {t('keepPlaying')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
