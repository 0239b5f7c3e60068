/**
 * The player of one recording: a canvas painted by the WebCodecs video worker (jmuxer <video> where
 * WebCodecs is missing), fed by a PlaybackSession; play/pause, speeds (1–16×), a seek slider over the
 * recording's span showing the current recording time, and the state with the spec's messages.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ActionIcon, Badge, Button, Group, SegmentedControl, Slider, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { PLAYBACK_FACTORS, playbackMessage, type PlaybackFactor } from '../../../domain/video/playback.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { session } from '../../session/store.ts';
import { formatTime } from '../track/format.ts';
import { mountVideoSurface } from '../video/video-surface.ts';
import { playbackUrl } from './api.ts';
import { RECORDINGS_NS } from './messages.ts';
import { PlaybackSession, type PlaybackSnapshot, type SocketLike } from './playback-session.ts';

export interface PlaybackTarget {
  /** A new key is a new session (play another recording, or the same one again). */
  key: number;
  vehicleId: number;
  plate: string;
  channel: number;
  /** The recording's span (the slider) and where to start. */
  spanStart: number;
  spanEnd: number;
  from: number;
}

const IDLE: PlaybackSnapshot = { state: 'connecting', speed: 1, position: 0 };
const noop = () => () => undefined;

export function PlaybackTile({ target, onClose }: { target: PlaybackTarget; onClose(): void }) {
  const t = useT(RECORDINGS_NS);
  const lang = useLang();
  const surfaceRef = useRef<HTMLDivElement>(null);
  const [playback, setPlayback] = useState<PlaybackSession | null>(null);
  const snap = useSyncExternalStore(playback?.subscribe ?? noop, playback?.get ?? (() => IDLE));
  /** The slider while dragged (its value follows the hand, not the stream). */
  const [dragging, setDragging] = useState<number | null>(null);

  useEffect(() => {
    const host = surfaceRef.current;
    if (!host) return;
    const ch = mountVideoSurface(host, 'playback-surface');
    const s = new PlaybackSession({
      url: playbackUrl({ vehicleId: target.vehicleId, channel: target.channel, startTime: target.from, endTime: target.spanEnd }, session.token ?? ''),
      start: target.from,
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      feed: (bytes) => ch.feed(bytes),
      onControlFailed: (_action, reason) => notifications.show({ color: 'red', autoClose: 3000, message: playbackMessage(reason, lang) }),
    });
    setPlayback(s);
    return () => {
      s.dispose();
      ch.dispose();
      setPlayback(null);
    };
    // The language only words notifications; a new session per target.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target.key]);

  const live = snap.state === 'playing' || snap.state === 'paused';
  const shown = dragging ?? snap.seeking ?? snap.position;
  const stateText = snap.state === 'stopped' && snap.reason ? playbackMessage(snap.reason, lang) : t(`state.${snap.state}`);
  return (
    <Stack gap={4} data-testid="playback-tile" data-state={snap.state}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {`${target.plate} · ${t('channelName', { n: target.channel })}`}
        </Text>
        <Group gap="xs">
          <Badge size="sm" color={snap.state === 'stopped' ? 'red' : snap.state === 'playing' ? 'green' : 'gray'} data-testid="playback-state">
            {stateText}
          </Badge>
          <ActionIcon size="sm" variant="subtle" aria-label={t('close')} onClick={onClose} data-testid="playback-close">
            ✕
          </ActionIcon>
        </Group>
      </Group>
      <div ref={surfaceRef} style={{ position: 'relative', background: '#000', aspectRatio: '16 / 9', width: '100%' }} />
      <Group gap="xs" wrap="nowrap">
        {snap.state === 'paused' ? (
          <Button size="compact-xs" onClick={() => playback?.resume()} data-testid="playback-resume">
            {t('resume')}
          </Button>
        ) : (
          <Button size="compact-xs" disabled={snap.state !== 'playing'} onClick={() => playback?.pause()} data-testid="playback-pause">
            {t('pause')}
          </Button>
        )}
        <Text size="xs">{t('speed')}</Text>
        <SegmentedControl
          size="xs"
          disabled={!live}
          value={String(snap.speed)}
          onChange={(v) => playback?.setSpeed(Number(v) as PlaybackFactor)}
          data={PLAYBACK_FACTORS.map((f) => ({ value: String(f), label: `${f}×` }))}
          data-testid="playback-speed"
        />
        <Text size="xs" ff="monospace" data-testid="playback-time" data-position={Math.floor(shown / 1000) * 1000}>
          {`${t('position')} ${formatTime(shown)}`}
        </Text>
      </Group>
      <Slider
        min={target.spanStart}
        max={target.spanEnd}
        step={1000}
        disabled={!live}
        value={Math.min(target.spanEnd, Math.max(target.spanStart, shown))}
        label={(v) => formatTime(v)}
        onChange={setDragging}
        onChangeEnd={(v) => {
          setDragging(null);
          playback?.seek(v);
        }}
        data-testid="playback-slider"
      />
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {formatTime(target.spanStart)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatTime(target.spanEnd)}
        </Text>
      </Group>
    </Stack>
  );
}
