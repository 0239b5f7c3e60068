/**
 * 语音下发 (/operation/messageManagement/batchTtsTask, issue 19): a text — typed, or a text template's —
 * with its display types (terminal TTS, urgent, terminal display, advertising screen) to up to 500
 * vehicles, with a validity window for the offline ones; the dispatch's per-vehicle state follows live
 * below (VoiceTaskView). The server refuses more than 500 vehicles in words; so does the form first.
 */
import { Alert, Button, Checkbox, Group, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { PageFrame } from '../../kit/PageFrame.tsx';
import type { VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { VehiclesPicker } from '../fleet-pickers/VehiclesPicker.tsx';
import { DISPLAY_TYPES, SEND_ROUTE, TASK_VEHICLES_MAX, VALID_CHOICES, voiceApi, type DisplayType } from './api.ts';
import { VOICE_RES_NS } from './messages.ts';
import { VoiceTaskView } from './VoiceTaskView.tsx';

export function BatchTtsTaskPage() {
  const t = useT(VOICE_RES_NS);
  const [source, setSource] = useState<'typed' | 'template'>('typed');
  const [text, setText] = useState('');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [types, setTypes] = useState<DisplayType[]>(['tts']);
  const [valid, setValid] = useState('1440');
  const [vehicles, setVehicles] = useState<VehicleOption[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const templates = useQuery({ queryKey: ['voice', 'templates'], queryFn: voiceApi.textList });
  const chosen = templates.data?.find((x) => String(x.id) === templateId);

  const send = async () => {
    if (source === 'typed' && !text.trim()) return setError(t('contentRequired'));
    if (source === 'template' && !chosen) return setError(t('templatePick'));
    if (types.length === 0) return setError(t('typesRequired'));
    if (vehicles.length === 0) return setError(t('noVehicles'));
    if (vehicles.length > TASK_VEHICLES_MAX) return setError(t('tooMany', { max: TASK_VEHICLES_MAX, n: vehicles.length }));
    setBusy(true);
    setError(null);
    try {
      const task = await voiceApi.send({
        vehicleIds: vehicles.map((v) => v.id), types, validMinutes: Number(valid),
        ...(source === 'typed' ? { text: text.trim() } : { templateId: chosen!.id }),
      });
      notifications.show({ color: 'green', message: t('sent', { id: task.id }) });
      setTaskId(task.id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageFrame pageId="batchTtsTask" testId="voice-send" title={t('sendTitle')}>
      <Stack gap="sm" maw={900}>
        <SegmentedControl value={source} onChange={(v) => setSource(v as 'typed' | 'template')} w={320}
          data={[{ value: 'typed', label: t('typed') }, { value: 'template', label: t('fromTemplate') }]} data-testid="voice-source" />
        {source === 'typed'
          ? <Textarea label={t('text')} placeholder={t('textPlaceholder')} value={text} onChange={(e) => setText(e.currentTarget.value)} autosize minRows={3} maxLength={500} withAsterisk data-testid="voice-text" />
          : (
            <Stack gap={4}>
              <Select label={t('template')} placeholder={t('templatePick')} value={templateId} onChange={setTemplateId} searchable w={420}
                data={(templates.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))} data-testid="voice-template" />
              {chosen && <Text size="sm" c="dimmed">{chosen.content}</Text>}
            </Stack>
          )}
        <Checkbox.Group label={t('types')} value={types} onChange={(v) => setTypes(v as DisplayType[])} withAsterisk>
          <Group mt={4}>{DISPLAY_TYPES.map((d) => <Checkbox key={d} value={d} label={t(`type.${d}`)} data-testid={`voice-type-${d}`} />)}</Group>
        </Checkbox.Group>
        <Select label={t('valid')} description={t('validHint')} value={valid} onChange={(v) => setValid(v ?? '1440')} allowDeselect={false} w={260}
          data={VALID_CHOICES.map((m) => ({ value: String(m), label: t(`validChoice.${m}`) }))} data-testid="voice-valid" />
        <Text size="sm" fw={500}>{t('vehicles')}</Text>
        <VehiclesPicker value={vehicles} onChange={setVehicles} max={TASK_VEHICLES_MAX} needsDevice testId="voice-vehicles" />
        <Group>
          <Perm route={SEND_ROUTE} button="send">
            <Button loading={busy} disabled={vehicles.length === 0} onClick={() => void send()} data-testid="voice-send-submit">{t('send', { n: vehicles.length })}</Button>
          </Perm>
        </Group>
        {error && <Alert color="red" p={6} data-testid="voice-send-error">{error}</Alert>}
        {taskId !== null && <VoiceTaskView key={taskId} taskId={taskId} />}
      </Stack>
    </PageFrame>
  );
}
