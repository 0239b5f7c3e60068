/**
 * The global alarm area (spec §2 `/global/alarm`): a counter and a pop-up of new alarms, for every
 * signed-in user holding the area (spec §6: without it the pop-up is removed). The alarms come
 * from the client-held lists in the stream worker (src/live/stream/alarm-lists.ts) through the
 * session's shared stream; React only renders the small snapshot (≤ 4 Hz, after a change).
 * Two settings decide what an alarm does (both must agree):
 * - the company's linkage for its type (alarm settings → linkage page), carried on the push message
 *   as `popup` / `voice`: whether this type opens the pop-up and sounds a tone at all;
 * - the user's own settings (findUserAlarmPopSettingDetail, read once per session): whether pop-ups
 *   open and tones sound for this user.
 * Every alarm still counts in the counter; clicking it shows the newest alarm whatever the settings.
 *
 * Placement (src/shell/layers.ts): the counter, the missed-alarms note and the "enable sound" control
 * sit in the header (`headerSlot`), free of map controls; the pop-up docks in the shell's aside column
 * (`onDockedChange` opens it), so it takes page space instead of covering page controls. Drawers and
 * dialogs open left of it (BESIDE_DOCK): it stays visible and clickable beside them. On the live map
 * (`compact`) it docks narrow — vehicle, alarm, time, address, 处理 / 详情 / 视频 — and 展开 widens it
 * to the full pop-up, so the map keeps most of its width.
 */
import { ActionIcon, AppShell, Badge, Button, CloseButton, Group, Indicator, Modal, Paper, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { LAYERS, type DockMode } from '../../shell/layers.ts';
import { AlarmDetailBody } from './popup/AlarmDetailDialog.tsx';
import { POPUP_NS } from './popup/messages.ts';
import { createPortal } from 'react-dom';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { alarmName, PLATFORM_GENERATED_CODES } from '../../../domain/alarms/catalogue.ts';
import { DealStatus } from '../../../domain/alarms/engine.ts';
import { globalAreaShows } from '../../../domain/permissions/access.ts';
import { isOnline, type VehicleState } from '../../../domain/vehicle/state.ts';
import { navigateHref } from '../../app/navigate.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import type { AlarmItem, AlarmSnapshot } from '../../live/stream/alarm-lists.ts';
import type { LiveStream } from '../../live/stream/client.ts';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { useAccess, useSession } from '../../session/store.ts';
import { fetchPopSetting, type PopSetting } from './api.ts';
import { formatPlace, formatTime, playbackHref, riskColor } from './format.ts';
import { HandleForm } from './HandleForm.tsx';
import { ALARMS_NS } from './messages.ts';
import { createSnapshotStore } from './snapshot-store.ts';
import { probeSound, unlockSound, useSoundBlocked } from './sound.ts';
import { playAlarmSound } from '../voice/alarm-sound.ts';
import { TtsForm } from './TtsForm.tsx';
import { mediaApi, type SnapResult } from '../media-reports/api.ts';
import { SnapDialog } from '../media-reports/SnapDialog.tsx';
import { AddressText } from '../monitor/AddressText.tsx';
import { ObdPanel } from './ObdPanel.tsx';
import { PhoneForm } from './PhoneForm.tsx';
import { playReminder } from './reminder.ts';
import { TalkPanel } from './TalkPanel.tsx';
import { VOICE_NS } from './voice-messages.ts';

const AREA = '/global/alarm';
const PROCESSING = '/safeManagement/alarmProcessingPage';
/** Alarms listed under the newest one in the pop-up. */
const MORE_SHOWN = 3;

/** Media buttons make no sense for platform-generated alarms (no device evidence; domain/alarms/catalogue.ts). */
const MEDIA = new Set<string>(['live', 'multiLive', 'talk', 'photoSnap', 'audioReminder']);
/** Buttons that need the terminal online: disabled (with the reason) while the alarm's vehicle is offline. */
const DEVICE = new Set<string>(['live', 'multiLive', 'talk', 'photoSnap', 'audioReminder', 'musicReminder', 'phoneReminder', 'ttsReminder']);
/** How often the pop-up re-reads its vehicle's state from the stream worker (one Comlink call, ≈ 80 µs). */
const ONLINE_POLL_MS = 5000;

/** Whether the vehicle is online as the session's stream knows it; undefined until known (buttons stay enabled). */
function useVehicleOnline(streamRef: { readonly current: LiveStream | null }, vehicleId: number | undefined): boolean | undefined {
  const [known, setKnown] = useState<{ vehicleId: number; online: boolean } | null>(null);
  useEffect(() => {
    if (vehicleId === undefined) return;
    let live = true;
    const read = () => {
      void streamRef.current?.lookup(vehicleId).then((r) => {
        if (live && r) setKnown({ vehicleId, online: isOnline(r.state as VehicleState) });
      });
    };
    read();
    const timer = setInterval(read, ONLINE_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [streamRef, vehicleId]);
  return known !== null && known.vehicleId === vehicleId ? known.online : undefined;
}

const settingCache = new Map<number, Promise<PopSetting>>();
/** Once per session and user; defaults (pop-up and voice on) when the call fails. */
function popSettingOf(userId: number): Promise<PopSetting> {
  let p = settingCache.get(userId);
  if (!p) {
    p = fetchPopSetting().catch(() => ({ userId, popup: true, voice: true, voiceUrl: '' }));
    settingCache.set(userId, p);
  }
  return p;
}

export interface GlobalAlarmProps {
  /** Header element the counter and the sound control are portalled into (null until mounted). */
  headerSlot: HTMLElement | null;
  /** The page is the live map: dock compact (the operator can expand it). */
  compact: boolean;
  /** Whether and how wide the pop-up wants the shell's aside column. */
  onDockedChange: (mode: DockMode) => void;
}

export function GlobalAlarm(props: GlobalAlarmProps) {
  const access = useAccess();
  const userId = useSession().user?.id;
  if (userId === undefined || !globalAreaShows(access, AREA)) return null;
  return <AlarmArea key={userId} userId={userId} {...props} />;
}

type Dialog =
  | { kind: 'tts' | 'handle' | 'talk' | 'phone' | 'obd' | 'obdLargeVehicle' | 'detail'; alarm: AlarmItem }
  | { kind: 'snap'; alarm: AlarmItem; started: Promise<SnapResult> }
  | null;

function AlarmArea({ userId, headerSlot, compact, onDockedChange }: { userId: number } & GlobalAlarmProps) {
  const t = useT(ALARMS_NS);
  const pt = useT(POPUP_NS);
  /** The operator widened the compact pop-up (kept for the session's visit to the map). */
  const [expanded, setExpanded] = useState(false);
  const voiceT = useT(VOICE_NS);
  const lang = useLang();
  const access = useAccess();
  const store = useMemo(() => createSnapshotStore<AlarmSnapshot | null>(null), []);
  const snapshot = useSyncExternalStore(store.subscribe, store.get);
  const streamRef = useRef<LiveStream | null>(null);
  const [setting, setSetting] = useState<PopSetting | null>(null);
  /** Id of the newest alarm the user closed or hid the pop-up on: the next alarm opens it again. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  /** The user clicked the counter: show the newest alarm even when no linkage asked for a pop-up. */
  const [shownByUser, setShownByUser] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  /** Tone-linked alarms already known when this area started (no tone for the past). */
  const voiceBaseline = useRef<number | undefined>(undefined);
  const [tones, setTones] = useState(0);

  const settingRef = useRef<PopSetting | null>(null);
  useEffect(() => {
    settingRef.current = setting;
  }, [setting]);

  useEffect(() => {
    const stream = acquireLiveStream();
    streamRef.current = stream;
    const off = stream.onAlarmLists((s) => {
      store.set(s);
      if (voiceBaseline.current === undefined) {
        voiceBaseline.current = s.voiceCount;
      } else if (s.voiceCount > voiceBaseline.current) {
        voiceBaseline.current = s.voiceCount;
        // one tone however many tone-linked alarms arrived since the last snapshot (≤ 4 Hz)
        if (settingRef.current?.voice) {
          // the audio resource chosen in the user's pop-up setting (voiceUrl), else the built-in tone
          playAlarmSound(settingRef.current.voiceUrl);
          setTones((n) => n + 1);
        }
      }
    });
    return () => {
      off();
      stream.dispose();
      streamRef.current = null;
    };
  }, [store]);

  useEffect(() => {
    let live = true;
    void popSettingOf(userId).then((s) => live && setSetting(s));
    return () => {
      live = false;
    };
  }, [userId]);

  const shownVehicle = (snapshot?.popup[0] ?? (shownByUser ? snapshot?.recent[0] : undefined))?.vehicleId;
  const online = useVehicleOnline(streamRef, shownVehicle);
  const soundBlocked = useSoundBlocked();

  // Ask the browser early whether it holds sound back, so the control shows before the first alarm.
  useEffect(() => {
    if (setting?.voice) probeSound();
  }, [setting]);

  const shownNow = (snapshot?.popup[0] ?? (shownByUser ? snapshot?.recent[0] : undefined)) ?? undefined;
  const docked = shownNow !== undefined && (shownByUser || ((setting?.popup ?? false) && shownNow.id !== dismissed));
  const mode: DockMode = !docked ? 'off' : compact && !expanded ? 'compact' : 'full';
  useEffect(() => {
    onDockedChange(mode);
  }, [mode, onDockedChange]);
  useEffect(() => () => onDockedChange('off'), [onDockedChange]);

  if (!snapshot) return null;
  const unread = snapshot.unread;
  const voice = setting ? (setting.voice ? 'on' : 'off') : 'unknown';
  const linked = snapshot.popup[0];
  const list = linked === undefined && shownByUser ? snapshot.recent : snapshot.popup;
  const listCount = linked === undefined && shownByUser ? snapshot.counts.alarms : snapshot.popupCount;
  const newest = list[0];
  const newestId = newest?.id ?? null;
  // the same decision as `docked` above (it runs before the early return, for the effect)
  const open = docked && newest !== undefined;

  const hide = () => {
    setDismissed(newestId);
    setShownByUser(false);
  };
  const close = () => {
    hide();
    streamRef.current?.markAlarmsRead();
  };

  // Alarms the reconnect catch-up could not bring back (more than the server replays): say so, and where they are.
  const missedNote = snapshot.missed > 0 && (
    <Paper withBorder p={6} maw={open ? undefined : 360} data-testid="alarm-missed" data-missed={snapshot.missed}>
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="orange" lineClamp={open ? undefined : 2}>{t(snapshot.missedCapped ? 'popup.missedAtLeast' : 'popup.missed', { count: snapshot.missed })}</Text>
        {access.canSeeRoute(PROCESSING) && (
          <Button size="compact-xs" variant="subtle" onClick={() => void navigateHref(PROCESSING)} data-testid="alarm-missed-open">{t('popup.processing')}</Button>
        )}
      </Group>
    </Paper>
  );

  const row = (a: AlarmItem) => (
    <Text key={a.id} size="xs" truncate data-testid="alarm-popup-more" data-alarm-id={a.id}>
      {`${a.vehiidno} · ${alarmName(a.alarmType, lang)} · ${formatTime(a.gpsTime)}`}
    </Text>
  );

  const btn = (a: AlarmItem, name: string, onClick: () => void, label = t(`button.${name}`)) => {
    if (PLATFORM_GENERATED_CODES.has(a.alarmType) && MEDIA.has(name)) return null;
    const offline = online === false && DEVICE.has(name);
    const button = (
      <Button size="compact-xs" variant="light" onClick={onClick} disabled={offline} data-testid={`alarm-btn-${name}`}>
        {label}
      </Button>
    );
    return (
      <Perm key={name} route={AREA} button={name}>
        {offline ? <Tooltip label={t('popup.vehicleOffline')}><span>{button}</span></Tooltip> : button}
      </Perm>
    );
  };
  // live: the driver camera (channel 1, where DMS alarms come from); multiLive: every camera.
  const live = (a: AlarmItem) => () => void navigateHref(`/monitor/videoMonitor?vehicleId=${a.vehicleId}&plate=${encodeURIComponent(a.vehiidno)}&channels=1`);
  const handleButton = (a: AlarmItem) =>
    a.dealStatus === DealStatus.Unprocessed && (
      <Perm route={PROCESSING} button="confirm">
        <Button size="compact-xs" color="red" onClick={() => setDialog({ kind: 'handle', alarm: a })} data-testid="alarm-btn-handle">
          {t('button.handle')}
        </Button>
      </Perm>
    );

  // 详情: the alarm with its evidence in a dialog (the processing page's call and right).
  const detailButton = (a: AlarmItem) =>
    access.canSeeRoute(PROCESSING) && (
      <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'detail', alarm: a })} data-testid="alarm-btn-detail">
        {pt('detail')}
      </Button>
    );

  const buttons = (a: AlarmItem) => (
    <Group gap={4} data-testid="alarm-popup-buttons">
      {btn(a, 'live', live(a))}
      {btn(a, 'multiLive', () => void navigateHref(`/monitor/videoMonitor?vehicleId=${a.vehicleId}&plate=${encodeURIComponent(a.vehiidno)}`))}
      {btn(a, 'ttsReminder', () => setDialog({ kind: 'tts', alarm: a }))}
      {btn(a, 'trackPlayback', () => void navigateHref(playbackHref(a, Date.now())))}
      {btn(a, 'talk', () => setDialog({ kind: 'talk', alarm: a }))}
      {btn(a, 'phoneReminder', () => setDialog({ kind: 'phone', alarm: a }))}
      {btn(a, 'musicReminder', () => void playReminder(a, 'music'))}
      {btn(a, 'audioReminder', () => void playReminder(a, 'audio'))}
      {btn(a, 'photoSnap', () => setDialog({ kind: 'snap', alarm: a, started: mediaApi.photoSnap(a.vehicleId, a.id) }))}
      {btn(a, 'obd', () => setDialog({ kind: 'obd', alarm: a }))}
      {btn(a, 'obdLargeVehicle', () => setDialog({ kind: 'obdLargeVehicle', alarm: a }))}
      {handleButton(a)}
      {detailButton(a)}
    </Group>
  );

  /** Head of the pop-up: title, expand / compact on the live map, hide and close. */
  const head = (
    <Group justify="space-between" wrap="nowrap" gap={4}>
      <Text fw={700} c="red" size={mode === 'compact' ? 'sm' : undefined}>{t('popup.title')}</Text>
      <Group gap={2} wrap="nowrap">
        {compact && (
          <Tooltip label={pt(mode === 'compact' ? 'expandHint' : 'compactHint')}>
            <Button size="compact-xs" variant="subtle" onClick={() => setExpanded(mode === 'compact')} data-testid="alarm-popup-expand" data-expanded={String(mode === 'full')}>
              {pt(mode === 'compact' ? 'expand' : 'compact')}
            </Button>
          </Tooltip>
        )}
        <Button size="compact-xs" variant="subtle" onClick={hide} data-testid="alarm-popup-hide">{t('popup.hide')}</Button>
        <CloseButton size="sm" aria-label={t('popup.close')} onClick={close} data-testid="alarm-popup-close" />
      </Group>
    </Group>
  );

  /** The live map's pop-up: what the operator needs to decide, in as little width as possible. */
  const compactBody = (a: AlarmItem) => (
    <Stack gap={4}>
      {head}
      <Group gap={6} wrap="nowrap">
        <Text fw={700} size="sm" lineClamp={2} data-testid="alarm-popup-title" data-plate={a.vehiidno} data-alarm-type={a.alarmType}>
          {`${a.vehiidno} · ${alarmName(a.alarmType, lang)}`}
        </Text>
        <Badge size="sm" color={riskColor(a.riskLevel)} style={{ flexShrink: 0 }} data-testid="alarm-popup-risk">{t(`risk.${a.riskLevel}`, { defaultValue: a.riskLevel })}</Badge>
      </Group>
      <Text size="xs" data-testid="alarm-popup-time">{formatTime(a.gpsTime)}</Text>
      <Text size="xs" c="dimmed" data-testid="alarm-popup-place">{formatPlace(a.lng, a.lat)}</Text>
      <AddressText lng={a.lng} lat={a.lat} testId="alarm-popup-address" />
      <Group gap={4} data-testid="alarm-popup-buttons">
        {handleButton(a)}
        {detailButton(a)}
        {btn(a, 'live', live(a), pt('video'))}
      </Group>
      {listCount > 1 && <Text size="xs" c="dimmed" data-testid="alarm-popup-count">{pt('more', { count: listCount - 1 })}</Text>}
      {missedNote}
    </Stack>
  );

  return (
    <>
      {open && (
        <AppShell.Aside p="xs" data-testid="alarm-dock" data-mode={mode} data-beside-dialogs>
          <AppShell.Section grow component={ScrollArea}>
            <Paper withBorder p={mode === 'compact' ? 'xs' : 'sm'} data-testid="alarm-popup" data-mode={mode} data-voice={voice} data-alarm-id={newest.id} data-online={online === undefined ? 'unknown' : String(online)}>
              {mode === 'compact' ? compactBody(newest) : (
              <Stack gap={6}>
                {head}
                <Group gap={8} wrap="nowrap">
                  {/* Plate and name in one text: a page-wide text search for a plate (other pages' search boxes,
                      their e2e tests) must not find the pop-up's copy of it. */}
                  <Text fw={700} data-testid="alarm-popup-title" data-plate={newest.vehiidno} data-alarm-type={newest.alarmType}>
                    {`${newest.vehiidno} · ${alarmName(newest.alarmType, lang)}`}
                  </Text>
                  <Badge color={riskColor(newest.riskLevel)} data-testid="alarm-popup-risk">{t(`risk.${newest.riskLevel}`, { defaultValue: newest.riskLevel })}</Badge>
                </Group>
                <Text size="sm" data-testid="alarm-popup-time">{t('field.time')}: {formatTime(newest.gpsTime)}</Text>
                <Text size="sm" data-testid="alarm-popup-place">{t('field.place')}: {formatPlace(newest.lng, newest.lat)}</Text>
                <AddressText lng={newest.lng} lat={newest.lat} testId="alarm-popup-address" />
                <Text size="sm" data-testid="alarm-popup-speed">{t('field.speed')}: {t('speedValue', { speed: newest.speed })}</Text>
                {buttons(newest)}
                {list.slice(1, 1 + MORE_SHOWN).map(row)}
                {listCount > 1 + MORE_SHOWN && <Text size="xs" c="dimmed">{t('popup.more', { count: listCount - 1 - MORE_SHOWN })}</Text>}
                {missedNote}
              </Stack>
              )}
            </Paper>
          </AppShell.Section>
        </AppShell.Aside>
      )}
      {headerSlot && createPortal(
        <Group gap={6} wrap="nowrap">
          {soundBlocked && voice === 'on' && (
            <Tooltip label={t('popup.soundBlocked')}>
              <Button size="compact-sm" variant="light" color="orange" onClick={() => void unlockSound()} data-testid="alarm-sound-unlock">
                {t('popup.enableSound')}
              </Button>
            </Tooltip>
          )}
          {!open && missedNote}
          <Tooltip label={t('popup.unread', { count: unread })}>
            {/* The count badge overlaps the button corner: it must let that corner's clicks through to the button. */}
            <Indicator label={unread} size={18} disabled={unread === 0} color="red" styles={{ indicator: { pointerEvents: 'none' } }}>
              <ActionIcon
                size="lg"
                radius="xl"
                variant="filled"
                color={unread > 0 ? 'red' : 'gray'}
                aria-label={t('popup.show')}
                onClick={() => setShownByUser(true)}
                data-testid="alarm-counter"
                data-unread={unread}
                data-voice={voice}
                data-tones={tones}
                data-popup={setting ? (setting.popup ? 'on' : 'off') : 'unknown'}
              >
                !
              </ActionIcon>
            </Indicator>
          </Tooltip>
        </Group>,
        headerSlot,
      )}
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'tts'} onClose={() => setDialog(null)} title={t('tts.title')}>
        {dialog?.kind === 'tts' && <TtsForm vehicleId={dialog.alarm.vehicleId} alarmId={dialog.alarm.id} />}
      </Modal>
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'talk'} onClose={() => setDialog(null)} title={dialog ? voiceT('talk.title', { plate: dialog.alarm.vehiidno }) : ''}>
        {dialog?.kind === 'talk' && <TalkPanel vehicleId={dialog.alarm.vehicleId} />}
      </Modal>
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'phone'} onClose={() => setDialog(null)} title={dialog ? voiceT('phone.title', { plate: dialog.alarm.vehiidno }) : ''}>
        {dialog?.kind === 'phone' && <PhoneForm vehicleId={dialog.alarm.vehicleId} alarmId={dialog.alarm.id} />}
      </Modal>
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'snap'} onClose={() => setDialog(null)} size="lg" title={dialog ? `${dialog.alarm.vehiidno} · ${t('button.photoSnap')}` : ''}>
        {dialog?.kind === 'snap' && <SnapDialog vehicleId={dialog.alarm.vehicleId} alarmId={dialog.alarm.id} started={dialog.started} />}
      </Modal>
      <Modal
        zIndex={LAYERS.popupDialog}
        opened={dialog?.kind === 'obd' || dialog?.kind === 'obdLargeVehicle'}
        onClose={() => setDialog(null)}
        title={dialog ? voiceT(dialog.kind === 'obdLargeVehicle' ? 'obd.titleLarge' : 'obd.title', { plate: dialog.alarm.vehiidno }) : ''}
      >
        {(dialog?.kind === 'obd' || dialog?.kind === 'obdLargeVehicle') && (
          <ObdPanel vehicleId={dialog.alarm.vehicleId} protocol={dialog.kind === 'obd' ? 'obd2' : 'j1939'} />
        )}
      </Modal>
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'detail'} onClose={() => setDialog(null)} size="lg" title={dialog ? `${dialog.alarm.vehiidno} · ${alarmName(dialog.alarm.alarmType, lang)}` : ''}>
        {dialog?.kind === 'detail' && <AlarmDetailBody alarmId={dialog.alarm.id} />}
      </Modal>
      <Modal zIndex={LAYERS.popupDialog} opened={dialog?.kind === 'handle'} onClose={() => setDialog(null)} title={t('handle.title')}>
        {dialog?.kind === 'handle' && (
          <HandleForm
            alarm={dialog.alarm}
            onDone={(a) => {
              streamRef.current?.markAlarmHandled(dialog.alarm.id, a.dealStatus);
              setDialog(null);
            }}
          />
        )}
      </Modal>
    </>
  );
}
