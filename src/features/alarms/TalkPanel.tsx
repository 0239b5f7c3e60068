/**
 * The pop-up's intercom (talk button): opens a two-way intercom with the alarm's vehicle as soon as
 * it mounts (the button click is the user gesture the microphone and audio need), shows the state,
 * and hangs up on unmount. Failures show the spec's intercom message (§8).
 */
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { isVideoProblem, videoMessage } from '../../../domain/video/limits.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { browserTalkEnvironment } from '../../live/video/talk-browser.ts';
import { TalkSession, type TalkEnvironment } from '../../live/video/talk-session.ts';
import { useSession } from '../../session/store.ts';
import { talkUrl } from './voice-api.ts';
import { VOICE_NS } from './voice-messages.ts';

const STATE_COLOR = { idle: 'gray', connecting: 'yellow', talking: 'green', stopped: 'gray' } as const;

export function TalkPanel({ vehicleId, env }: { vehicleId: number; env?: TalkEnvironment }) {
  const t = useT(VOICE_NS);
  const lang = useLang();
  const token = useSession().token ?? '';
  const session = useMemo(() => new TalkSession(talkUrl(vehicleId, token), env ?? browserTalkEnvironment()), [vehicleId, token, env]);
  const snap = useSyncExternalStore(session.subscribe, session.getSnapshot);

  useEffect(() => {
    // start() after stop() begins afresh: StrictMode's unmount-remount in development keeps working.
    void session.start();
    // Counters tick 50 times a second: publish them 4 times a second.
    const timer = setInterval(() => session.flush(), 250);
    return () => {
      clearInterval(timer);
      session.stop();
    };
  }, [session]);

  const failed = snap.state === 'stopped' && snap.reason !== undefined;
  const message = !failed
    ? ''
    : snap.detail === 'busy'
      ? `${videoMessage('intercomFailed', lang)}（${t('talk.busy')}）`
      : isVideoProblem(snap.reason!) ? videoMessage(snap.reason!, lang) : videoMessage('intercomFailed', lang);

  return (
    <Stack gap="sm" data-testid="talk-panel" data-state={snap.state} data-reason={snap.reason ?? ''} data-detail={snap.detail ?? ''}>
      <Group gap="xs">
        <Badge color={STATE_COLOR[snap.state]} data-testid="talk-state">{t(`talk.state.${snap.state}`)}</Badge>
        <Text size="xs" c="dimmed" data-testid="talk-counters" data-sent={snap.framesSent} data-received={snap.framesReceived}>
          {t('talk.counters', { sent: snap.framesSent, received: snap.framesReceived })}
        </Text>
      </Group>
      {snap.state === 'talking' && <Text size="sm">{t('talk.hint')}</Text>}
      {failed && <Alert color="red" data-testid="talk-error">{message}</Alert>}
      {snap.state !== 'stopped' && (
        <Button color="red" onClick={() => session.stop()} data-testid="talk-hangup">{t('talk.hangUp')}</Button>
      )}
    </Stack>
  );
}
