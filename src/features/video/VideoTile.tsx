/**
 * One window of the wall: its session's canvas (WebCodecs in a video worker) or <video> (jmuxer/MSE
 * fallback), an overlay with plate, channel, state and fps, and the window's buttons. The session
 * lives as long as `win.key`: a new key (retry, stream switch) is a new socket and a new surface.
 */
import { useEffect, useRef } from 'react';
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isVideoProblem, videoMessage } from '../../../domain/video/limits.ts';
import { saveBlob } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { session } from '../../session/store.ts';
import type { VideoChannel } from '../../live/video/video-channel.ts';
import { TalkButton } from '../alarms/TalkButton.tsx';
import { videoUrl } from './api.ts';
import { VIDEO_NS } from './messages.ts';
import { mountVideoSurface } from './video-surface.ts';
import type { VideoWall, VideoWindow } from './video-wall.ts';
import { CameraIcon, FullscreenIcon, SpeakerIcon } from './icons.tsx';

/**
 * `maximised`: the tile fills the wall (double-click, on the main stream); `hidden`: another tile is
 * maximised — this one keeps its session (sub stream, cheap) so the grid comes back at once.
 */
export function VideoTile({ index, win, wall, audio, maximised = false, hidden = false }: { index: number; win: VideoWindow; wall: VideoWall; audio: boolean; maximised?: boolean; hidden?: boolean }) {
  const t = useT(VIDEO_NS);
  const lang = useLang();
  const surfaceRef = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const channelRef = useRef<VideoChannel | null>(null);
  const { key, vehicleId, channel, stream } = win;

  useEffect(() => {
    const host = surfaceRef.current;
    if (!host) return;
    let last: { painted: number; at: number } | null = null;
    const ch = mountVideoSurface(host, `video-surface-${index}`, {
      status: (s) => wall.setState(index, key, s.state === 'reconnecting' ? 'reconnecting' : s.state === 'playing' ? 'playing' : s.state === 'stopped' ? 'stopped' : 'connecting', 'reason' in s ? s.reason : undefined),
      stats: (s, _latencies, at) => {
        if (last && at > last.at) wall.setFps(index, key, ((s.painted - last.painted) * 1000) / (at - last.at));
        last = { painted: s.painted, at };
      },
    });
    channelRef.current = ch;
    ch.connect(videoUrl({ vehicleId, channel, stream }, session.token ?? ''));
    return () => {
      ch.dispose();
      channelRef.current = null;
    };
  }, [index, key, vehicleId, channel, stream, wall]);

  // Sound follows the wall's one unmuted window; a new session starts quiet until this runs again.
  useEffect(() => {
    channelRef.current?.setAudio(audio);
  }, [audio, key]);

  const snapshot = async () => {
    const blob = await channelRef.current?.snapshot();
    if (!blob) {
      notifications.show({ color: 'red', autoClose: 2000, message: videoMessage('captureFailed', lang) });
      return;
    }
    saveBlob({ blob, filename: `${win.plate}-CH${channel}-${new Date().toISOString().replace(/[:.]/g, '-')}.jpg` });
  };

  const stateText = win.state === 'stopped' && win.reason && isVideoProblem(win.reason) ? videoMessage(win.reason, lang) : t(`state.${win.state}`);
  return (
    <div
      ref={frameRef}
      data-testid={`video-window-${index}`}
      data-state={win.state}
      data-maximised={maximised || undefined}
      title={maximised ? t('restore') : t('maximise')}
      onDoubleClick={(e) => {
        // The buttons on the overlay keep their own clicks.
        if ((e.target as HTMLElement).closest('button')) return;
        wall.toggleMaximise(index);
      }}
      style={{ position: 'relative', background: '#000', minHeight: 0, minWidth: 0, display: hidden ? 'none' : undefined, gridColumn: maximised ? '1 / -1' : undefined, gridRow: maximised ? '1 / -1' : undefined }}
    >
      <div ref={surfaceRef} style={{ position: 'absolute', inset: 0 }} />
      <Group gap={4} justify="space-between" style={{ position: 'absolute', top: 0, left: 0, right: 0, padding: 4, background: 'rgba(0,0,0,0.45)' }} wrap="nowrap">
        <Text size="xs" c="white" truncate>
          {win.plate} · {t('channelName', { n: channel })} · {stream === 0 ? t('main') : t('sub')}
        </Text>
        <Group gap={2} wrap="nowrap">
          <Tooltip label={t(`switchTo.${stream === 0 ? 1 : 0}`)}>
            <ActionIcon size="xs" variant="subtle" color="gray.0" onClick={() => wall.switchStream(index)} data-testid={`video-switch-${index}`}>
              {stream === 0 ? 'HD' : 'SD'}
            </ActionIcon>
          </Tooltip>
          <Tooltip label={audio ? t('mute') : t('unmute')}>
            <ActionIcon size="xs" variant={audio ? 'filled' : 'subtle'} color="gray.0" onClick={() => wall.toggleAudio(index)} data-testid={`video-audio-${index}`} aria-pressed={audio}>
              <SpeakerIcon on={audio} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('snapshot')}>
            <ActionIcon size="xs" variant="subtle" color="gray.0" onClick={() => void snapshot()} disabled={win.state !== 'playing'} aria-label={t('snapshot')}>
              <CameraIcon />
            </ActionIcon>
          </Tooltip>
          <TalkButton vehicleId={vehicleId} plate={win.plate} testId={`video-talk-${index}`} />
          <Tooltip label={t('fullscreen')}>
            <ActionIcon size="xs" variant="subtle" color="gray.0" onClick={() => void frameRef.current?.requestFullscreen?.()} aria-label={t('fullscreen')}>
              <FullscreenIcon />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('close')}>
            <ActionIcon size="xs" variant="subtle" color="gray.0" onClick={() => wall.close(index)} data-testid={`video-close-${index}`}>
              ✕
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Group gap={4} style={{ position: 'absolute', bottom: 4, left: 4 }}>
        <Badge size="xs" color={win.state === 'playing' ? 'green' : win.state === 'stopped' ? 'red' : 'yellow'} data-testid={`video-state-${index}`}>
          {stateText}
        </Badge>
        {win.state === 'playing' && (
          <Text size="xs" c="gray.3">
            {t('fps', { fps: Math.round(win.fps) })}
          </Text>
        )}
      </Group>
      {win.state === 'stopped' && (
        <Button size="compact-xs" style={{ position: 'absolute', bottom: 4, right: 4 }} onClick={() => wall.retry(index)} data-testid={`video-retry-${index}`}>
          {t('retry')}
        </Button>
      )}
    </div>
  );
}
