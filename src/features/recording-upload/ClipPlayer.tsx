/**
 * Plays one received recording file in the page: the file is fetched through ftpdownload, split into
 * H.264 access units by ClipFeeder and fed at 25 fps to the live video path (the WebCodecs video
 * worker painting a canvas; jmuxer over MSE on a <video> where WebCodecs is missing).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { keyProblem, problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { DECODER, mountVideoSurface } from '../video/video-surface.ts';
import { downloadFile, type UploadFile } from './api.ts';
import { ClipFeeder } from './clip-feeder.ts';
import { RECORDING_UPLOAD_NS } from './messages.ts';

const noop = () => () => undefined;

export function ClipPlayer({ file, title, onClose }: { file: UploadFile; title: string; onClose(): void }) {
  const t = useT(RECORDING_UPLOAD_NS);
  const surfaceRef = useRef<HTMLDivElement>(null);
  const [feeder, setFeeder] = useState<ClipFeeder | null>(null);
  // Kept as what it means, so a language switch re-renders it (i18n/problem.ts).
  const [problem, setProblem] = useState<Problem | null>(null);
  const error = useProblemText(problem);
  const status = useSyncExternalStore(feeder?.subscribe ?? noop, () => (feeder ? `${feeder.status}:${feeder.position}` : 'loading:0'));
  const [state, position] = status.split(':') as [string, string];

  useEffect(() => {
    const host = surfaceRef.current;
    if (!host) return;
    const ch = mountVideoSurface(host, 'clip-surface');
    let disposed = false;
    let f: ClipFeeder | null = null;
    downloadFile(file.id).then(
      async ({ blob }) => {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        if (disposed) return;
        f = new ClipFeeder(bytes, { feed: (b) => ch.feed(b), now: Date.now, setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) });
        if (!f.playable) {
          setProblem(keyProblem('player.notPlayable', RECORDING_UPLOAD_NS));
          return;
        }
        setFeeder(f);
        f.play();
      },
      (e: unknown) => {
        if (!disposed) setProblem(problemOf(e));
      },
    );
    return () => {
      disposed = true;
      f?.dispose();
      ch.dispose();
      setFeeder(null);
    };
    // One player per file.
  }, [file.id]);

  const label = error ?? (state === 'loading' ? t('player.loading') : t(`player.${state}`));
  return (
    <Stack gap={4} data-testid="clip-player" data-state={error ? 'error' : state}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Group gap="xs">
          <Badge size="sm" color={error ? 'red' : state === 'playing' ? 'green' : 'gray'} data-testid="clip-state">
            {label}
          </Badge>
          <Text size="xs" c="dimmed">
            {t(`decoder.${DECODER}`)}
          </Text>
          <ActionIcon size="sm" variant="subtle" aria-label={t('player.close')} onClick={onClose} data-testid="clip-close">
            ✕
          </ActionIcon>
        </Group>
      </Group>
      <div ref={surfaceRef} style={{ position: 'relative', background: '#000', aspectRatio: '16 / 9', width: '100%' }} />
      <Group gap="xs">
        {state === 'playing' && (
          <Button size="compact-xs" onClick={() => feeder?.pause()} data-testid="clip-pause">
            {t('pause')}
          </Button>
        )}
        {state === 'paused' && (
          <Button size="compact-xs" onClick={() => feeder?.resume()} data-testid="clip-resume">
            {t('resume')}
          </Button>
        )}
        {state === 'ended' && (
          <Button size="compact-xs" onClick={() => feeder?.play()} data-testid="clip-replay">
            {t('player.replay')}
          </Button>
        )}
        {feeder && (
          <Text size="xs" ff="monospace" data-testid="clip-position">
            {t('player.frames', { n: Number(position), total: feeder.units.length })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
