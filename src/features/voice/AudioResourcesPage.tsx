/**
 * 音频资源 (/operation/entertainmentResources/audio, issue 19): upload one sound at a time (MP3, WAV or OGG,
 * ≤ 10 MiB; the server reads the type from the bytes and names what it refuses), listen to each on its row
 * (an <audio> fed from the bytes fetched with the session token), rename, delete, and choose one as the
 * user's alarm pop-up sound (their pop-up setting's voiceUrl; the built-in tone otherwise).
 */
import { Badge, Button, FileInput, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { fetchPopSetting } from '../alarms/api.ts';
import { useSessionImage } from '../shared/useSessionImage.ts';
import { UploadStatus, useUpload } from '../shared/useUpload.tsx';
import { formatTime } from '../system/ui/format.ts';
import { alarmSoundUrl } from './alarm-sound.ts';
import { AUDIO_MAX_BYTES, AUDIO_ROUTE, formatSize, voiceApi, type AudioResource } from './api.ts';
import { VOICE_RES_NS } from './messages.ts';

const SETTING_KEY = ['voice', 'pop-setting'] as const;

function UploadForm({ onDone }: { onDone: () => void }) {
  const t = useT(VOICE_RES_NS);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [remark, setRemark] = useState('');
  const upload = useUpload();
  const submit = async () => {
    if (!file) return upload.fail(t('fileRequired'));
    if (file.size > AUDIO_MAX_BYTES) return upload.fail(t('fileTooBig'));
    const form = new FormData();
    if (name.trim()) form.append('name', name.trim());
    if (remark.trim()) form.append('remark', remark.trim());
    form.append('file', file, file.name);
    await upload.send((progress) => voiceApi.audioUpload(form, progress), (a) => {
      notifications.show({ color: 'green', message: t('uploaded', { name: a.name }) });
      onDone();
    });
  };
  return (
    <Stack gap="xs" data-testid="audio-upload-form">
      {/* One file: no `multiple` (spec §5). */}
      <FileInput label={t('file')} description={t('fileHint')} value={file} onChange={setFile} withAsterisk accept="audio/mpeg,audio/wav,audio/ogg,.mp3,.wav,.ogg" data-testid="audio-file" />
      <TextInput label={t('name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={50} data-testid="audio-name" />
      <TextInput label={t('remark')} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} maxLength={200} />
      <UploadStatus upload={upload} progressText={(pct) => t('progressPct', { pct })} errorTestId="audio-upload-error" />
      <Group justify="end"><Button onClick={() => void submit()} loading={upload.pct !== null} data-testid="audio-upload-submit">{t('save')}</Button></Group>
    </Stack>
  );
}

/** Versioned by the row's update time (a stable module-level loader, as useSessionImage needs). */
const loadAudio = (id: number, _version: number) => voiceApi.audioFile(id);

/** The row's player: the bytes are fetched with the token when asked for, then an ordinary <audio>. */
function RowPlayer({ audio }: { audio: AudioResource }) {
  const t = useT(VOICE_RES_NS);
  const [asked, setAsked] = useState(false);
  const src = useSessionImage(loadAudio, asked ? [audio.id, audio.updateTime] : null);
  if (!asked) return <Button size="compact-xs" variant="light" onClick={() => setAsked(true)} data-testid={`audio-play-${audio.id}`}>{t('play')}</Button>;
  return src ? <audio controls autoPlay src={src} style={{ height: 28, maxWidth: 220 }} data-testid={`audio-player-${audio.id}`} /> : <Text size="xs" c="dimmed">…</Text>;
}

function RenameForm({ audio, onClose, onSaved }: { audio: AudioResource; onClose: () => void; onSaved: () => void }) {
  const t = useT(VOICE_RES_NS);
  const form = useForm({ initialValues: { name: audio.name, remark: audio.remark }, validate: { name: (v: string) => (!v.trim() ? t('nameRequired') : null) } });
  return (
    <FormDrawer title={audio.name} form={form} testId="audio-form" onClose={onClose} onSaved={onSaved} submit={(v) => voiceApi.audioUpdate({ id: audio.id, ...v })}>
      <TextInput label={t('name')} required name="name" maxLength={50} {...form.getInputProps('name')} />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={200} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}

export function AudioResourcesPage() {
  const t = useT(VOICE_RES_NS);
  const qc = useQueryClient();
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(AUDIO_ROUTE);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<AudioResource | undefined>(undefined);
  const setting = useQuery({ queryKey: SETTING_KEY, queryFn: fetchPopSetting });
  const chosen = setting.data?.voiceUrl ?? '';

  const chooseAlarmSound = async (voiceUrl: string, message: string) => {
    try {
      await http.post('/service-safe/usersetting/doUserAlarmPopSettingDetailVoiceUrl', { voiceUrl }, { noCompanyId: true, silent: true });
      notifications.show({ color: 'green', message });
      void qc.invalidateQueries({ queryKey: SETTING_KEY });
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e) });
    }
  };

  const columns: KitColumn<AudioResource>[] = [
    { key: 'name', title: t('name'), minWidth: 120, maxWidth: 240, render: (r) => (
      <Group gap={4} wrap="nowrap"><Text size="sm" fw={500}>{r.name}</Text>{chosen === alarmSoundUrl(r.id) && <Badge size="xs" color="orange" data-testid="audio-alarm-badge">{t('alarmSound')}</Badge>}</Group>
    ) },
    { key: 'player', title: t('play'), minWidth: 120, maxWidth: 240, render: (r) => <RowPlayer audio={r} /> },
    { key: 'format', title: t('format'), minWidth: 70, maxWidth: 90, render: (r) => <Badge variant="light" size="sm">{r.format.toUpperCase()}</Badge> },
    { key: 'size', title: t('size'), minWidth: 80, maxWidth: 110, render: (r) => formatSize(r.size) },
    { key: 'fileName', title: t('fileName'), minWidth: 120, maxWidth: 260, render: (r) => r.fileName },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
    { key: 'createdByName', title: t('createdBy'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'createTime', title: t('createTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.createTime) },
  ];
  return (
    <ListPage<AudioResource>
      route={AUDIO_ROUTE}
      pageId="operation-audio-resources"
      title={t('audioTitle')}
      tree={{}}
      searchPlaceholder={t('audioSearch')}
      fetchPage={(q) => voiceApi.audioPage({ current: q.current, size: q.size, keyword: q.keyword || undefined })}
      scope={{ companyId }}
      columns={columns}
      actionsWidth={260}
      toolbar={
        <Group gap="xs">
          <Perm route={AUDIO_ROUTE} button="upload"><Button size="xs" onClick={() => setUploading(true)} data-testid="audio-upload">{t('upload')}</Button></Perm>
          {chosen && <Button size="xs" variant="subtle" onClick={() => void chooseAlarmSound('', t('builtInRestored'))} data-testid="audio-alarm-builtin">{t('useBuiltIn')}</Button>}
        </Group>
      }
      rowActions={(r) => chosen !== alarmSoundUrl(r.id) && (
        <Button size="compact-xs" variant="subtle" onClick={() => void chooseAlarmSound(alarmSoundUrl(r.id), t('alarmSoundSet', { name: r.name }))} data-testid={`audio-use-alarm-${r.id}`}>{t('chooseAlarmSound')}</Button>
      )}
      onEdit={(a) => setEditing(a)}
      remove={{ name: (r) => r.name, message: (r) => t('deleteConfirm', { name: r.name }), call: (r) => voiceApi.audioRemove([r.id]) }}
    >
      <Modal opened={uploading} onClose={() => setUploading(false)} title={t('upload')}>
        {uploading && <UploadForm onDone={() => { setUploading(false); void invalidate(); }} />}
      </Modal>
      {editing && <RenameForm audio={editing} onClose={() => setEditing(undefined)} onSaved={() => { setEditing(undefined); void invalidate(); }} />}
    </ListPage>
  );
}
