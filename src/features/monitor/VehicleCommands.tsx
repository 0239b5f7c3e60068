/**
 * What the vehicle menu's commands do. The forms are the alarm pop-up's own (TtsForm, TalkPanel,
 * PhoneForm, ObdPanel) and the media reports' SnapDialog, here without an alarm; navigation entries
 * open the video wall, today's track and the vehicle's alarms.
 */
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useState, type ReactNode } from 'react';
import { isApiError } from '../../api/http.ts';
import { navigateHref } from '../../app/navigate.ts';
import { translate, useT } from '../../i18n/index.ts';
import { ALARMS_NS } from '../alarms/messages.ts';
import { ObdPanel } from '../alarms/ObdPanel.tsx';
import { PhoneForm } from '../alarms/PhoneForm.tsx';
import { TalkPanel } from '../alarms/TalkPanel.tsx';
import { TtsForm } from '../alarms/TtsForm.tsx';
import { startReminder, type ReminderSound } from '../alarms/voice-api.ts';
import { VOICE_NS } from '../alarms/voice-messages.ts';
import { mediaApi, type SnapResult } from '../media-reports/api.ts';
import { SnapDialog } from '../media-reports/SnapDialog.tsx';
import { playbackHref } from '../track/TrackSearchPage.tsx';
import { AttributesPanel, ControlForm, PositionPanel, TrackingForm } from './TerminalTools.tsx';
import { TERMINAL_TOOLS_NS } from './terminal-tools-messages.ts';
import { startOfToday, type VehicleCommand } from './vehicle-commands.ts';

export interface CommandTarget {
  vehicleId: number;
  plate: string;
}

type Dialog =
  | { kind: 'tts' | 'talk' | 'phone' | 'obd' | 'obdLarge' | 'position' | 'tempTrack' | 'terminalControl' | 'attributes'; target: CommandTarget }
  | { kind: 'photo'; target: CommandTarget; started: Promise<SnapResult> }
  | null;

async function remind(target: CommandTarget, fun: ReminderSound): Promise<void> {
  try {
    const r = await startReminder(target.vehicleId, fun);
    notifications.show({ color: 'green', autoClose: 4000, message: translate(`reminder.${fun}`, { seconds: Math.round(r.durationMs / 1000) }, VOICE_NS) });
  } catch (e) {
    notifications.show({ color: 'red', autoClose: 5000, message: isApiError(e) ? e.msg : String(e) });
  }
}

/** `run` starts a command for a vehicle; `dialogs` must be rendered once by the page. */
export function useVehicleCommands(): { run: (kind: VehicleCommand, target: CommandTarget) => void; dialogs: ReactNode } {
  const t = useT(ALARMS_NS);
  const voiceT = useT(VOICE_NS);
  const toolT = useT(TERMINAL_TOOLS_NS);
  const [dialog, setDialog] = useState<Dialog>(null);

  const run = useCallback((kind: VehicleCommand, target: CommandTarget) => {
    const plate = encodeURIComponent(target.plate);
    switch (kind) {
      case 'live':
        void navigateHref(`/monitor/videoMonitor?vehicleId=${target.vehicleId}&plate=${plate}`);
        break;
      case 'track': {
        const now = Date.now();
        void navigateHref(playbackHref({ vehicleId: target.vehicleId, plate: target.plate }, startOfToday(now), now));
        break;
      }
      case 'alarms':
        void navigateHref(`/safeManagement/alarmProcessingPage?vehicleId=${target.vehicleId}&plate=${plate}`);
        break;
      // Screens opened with the vehicle chosen (issue 17): they read ?vehicleId on opening.
      case 'params':
        void navigateHref(`/information/params/baseParam?vehicleId=${target.vehicleId}&plate=${plate}`);
        break;
      case 'fence':
        void navigateHref(`/monitor/shape_map?vehicleId=${target.vehicleId}&plate=${plate}`);
        break;
      case 'commLog':
        void navigateHref(`/monitor/deviceLog?vehicleId=${target.vehicleId}&plate=${plate}`);
        break;
      case 'music':
      case 'audio':
        void remind(target, kind);
        break;
      case 'photo':
        // Started by the click, not by the dialog's mount: each start makes the terminal take photos.
        setDialog({ kind, target, started: mediaApi.photoSnap(target.vehicleId) });
        break;
      default:
        setDialog({ kind, target });
    }
  }, []);

  const close = () => setDialog(null);
  const plate = dialog?.target.plate ?? '';
  const dialogs = (
    <>
      <Modal opened={dialog?.kind === 'tts'} onClose={close} title={`${plate} · ${t('tts.title')}`}>
        {dialog?.kind === 'tts' && <TtsForm vehicleId={dialog.target.vehicleId} />}
      </Modal>
      <Modal opened={dialog?.kind === 'talk'} onClose={close} title={voiceT('talk.title', { plate })}>
        {dialog?.kind === 'talk' && <TalkPanel vehicleId={dialog.target.vehicleId} />}
      </Modal>
      <Modal opened={dialog?.kind === 'phone'} onClose={close} title={voiceT('phone.title', { plate })}>
        {dialog?.kind === 'phone' && <PhoneForm vehicleId={dialog.target.vehicleId} />}
      </Modal>
      <Modal opened={dialog?.kind === 'photo'} onClose={close} size="lg" title={`${plate} · ${t('button.photoSnap')}`}>
        {dialog?.kind === 'photo' && <SnapDialog vehicleId={dialog.target.vehicleId} started={dialog.started} />}
      </Modal>
      <Modal
        opened={dialog?.kind === 'obd' || dialog?.kind === 'obdLarge'}
        onClose={close}
        title={voiceT(dialog?.kind === 'obdLarge' ? 'obd.titleLarge' : 'obd.title', { plate })}
      >
        {(dialog?.kind === 'obd' || dialog?.kind === 'obdLarge') && (
          <ObdPanel vehicleId={dialog.target.vehicleId} protocol={dialog.kind === 'obd' ? 'obd2' : 'j1939'} />
        )}
      </Modal>
      <Modal opened={dialog?.kind === 'position'} onClose={close} title={toolT('position.title', { plate })}>
        {dialog?.kind === 'position' && <PositionPanel vehicleId={dialog.target.vehicleId} />}
      </Modal>
      <Modal opened={dialog?.kind === 'tempTrack'} onClose={close} title={toolT('tracking.title', { plate })}>
        {dialog?.kind === 'tempTrack' && <TrackingForm vehicleId={dialog.target.vehicleId} />}
      </Modal>
      <Modal opened={dialog?.kind === 'terminalControl'} onClose={close} title={toolT('control.title', { plate })}>
        {dialog?.kind === 'terminalControl' && <ControlForm vehicleId={dialog.target.vehicleId} plate={dialog.target.plate} />}
      </Modal>
      <Modal opened={dialog?.kind === 'attributes'} onClose={close} title={toolT('attributes.title', { plate })}>
        {dialog?.kind === 'attributes' && <AttributesPanel vehicleId={dialog.target.vehicleId} />}
      </Modal>
    </>
  );
  return { run, dialogs };
}
