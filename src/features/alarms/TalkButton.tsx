/**
 * A talk button for places outside the pop-up (a video wall tile): the intercom of `TalkPanel` in its
 * own modal, shown only to users with the pop-up's talk button (`/global/alarm:talk`, which the talk
 * websocket requires).
 */
import { ActionIcon, Modal, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ALARMS_NS } from './messages.ts';
import { TalkPanel } from './TalkPanel.tsx';
import { VOICE_NS } from './voice-messages.ts';
import { MicIcon } from '../video/icons.tsx';

export function TalkButton({ vehicleId, plate, testId }: { vehicleId: number; plate: string; testId?: string }) {
  const t = useT(ALARMS_NS);
  const voiceT = useT(VOICE_NS);
  const [open, setOpen] = useState(false);
  return (
    <Perm route="/global/alarm" button="talk">
      <Tooltip label={t('button.talk')}>
        <ActionIcon size="xs" variant="subtle" color="gray.0" onClick={() => setOpen(true)} data-testid={testId} aria-label={t('button.talk')}>
          <MicIcon />
        </ActionIcon>
      </Tooltip>
      <Modal opened={open} onClose={() => setOpen(false)} title={voiceT('talk.title', { plate })}>
        {open && <TalkPanel vehicleId={vehicleId} />}
      </Modal>
    </Perm>
  );
}
