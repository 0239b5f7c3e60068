/**
 * 升级包管理 (/information/params/hjwsUpdate, issue 17): upload a terminal upgrade package (file + name,
 * version, upgrade type, manufacturer id; checked here and by the server, which names the field it
 * refuses), list the company's packages and delete them. The file is stored by its SHA-256 (shown).
 */
import { Alert, Button, FileInput, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { DeleteRowButton } from '../../kit/DeleteRowButton.tsx';
import { errorText } from '../../kit/errors.ts';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { UploadStatus, useUpload } from '../shared/useUpload.tsx';
import { formatSize, PACKAGE_MAX_BYTES, PACKAGES_ROUTE, UPGRADE_TYPES, upgradeApi } from './api.ts';
import { TERMINAL_UPGRADE_NS } from './messages.ts';

export const PACKAGES_KEY = ['terminal-upgrade', 'packages'] as const;

function UploadForm({ onDone }: { onDone: () => void }) {
  const t = useT(TERMINAL_UPGRADE_NS);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [type, setType] = useState('0');
  const [makerId, setMakerId] = useState('');
  const [remark, setRemark] = useState('');
  const upload = useUpload();

  const submit = async () => {
    if (!file) return upload.fail(t('fileRequired'));
    if (file.size > PACKAGE_MAX_BYTES) return upload.fail(t('fileTooBig'));
    if (!name.trim()) return upload.fail(t('nameRequired'));
    if (!version.trim()) return upload.fail(t('versionRequired'));
    if (!/^[A-Za-z0-9]{1,5}$/.test(makerId.trim())) return upload.fail(t('makerRequired'));
    const form = new FormData();
    form.append('name', name.trim());
    form.append('version', version.trim());
    form.append('upgradeType', type);
    form.append('makerId', makerId.trim());
    if (remark.trim()) form.append('remark', remark.trim());
    // The file last: the server reads the fields first.
    form.append('file', file, file.name);
    await upload.send((progress) => upgradeApi.upload(form, progress), (p) => {
      notifications.show({ color: 'green', message: t('uploaded', { name: p.name }) });
      onDone();
    });
  };

  return (
    <Stack gap="xs" data-testid="upgrade-upload-form">
      <FileInput label={t('file')} value={file} onChange={setFile} withAsterisk data-testid="upgrade-file" />
      <TextInput label={t('name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={50} withAsterisk data-testid="upgrade-name" />
      <TextInput label={t('version')} value={version} onChange={(e) => setVersion(e.currentTarget.value)} maxLength={32} withAsterisk data-testid="upgrade-version" />
      <Select label={t('upgradeType')} value={type} onChange={(v) => setType(v ?? '0')} allowDeselect={false}
        data={UPGRADE_TYPES.map((x) => ({ value: String(x), label: `${x} ${t(`type.${x}`)}` }))} data-testid="upgrade-type" />
      <TextInput label={t('makerId')} value={makerId} onChange={(e) => setMakerId(e.currentTarget.value)} maxLength={5} withAsterisk data-testid="upgrade-maker" />
      <TextInput label={t('remark')} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} maxLength={200} />
      <UploadStatus upload={upload} progressText={(pct) => t('progressPct', { pct })} errorTestId="upgrade-upload-error" />
      <Group justify="end"><Button onClick={() => void submit()} loading={upload.pct !== null} data-testid="upgrade-upload-submit">{t('save')}</Button></Group>
    </Stack>
  );
}

export function PackagesPage() {
  const t = useT(TERMINAL_UPGRADE_NS);
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState(false);
  const list = useQuery({ queryKey: [...PACKAGES_KEY, keyword], queryFn: () => upgradeApi.packages(keyword.trim() || undefined) });
  const refresh = () => void qc.invalidateQueries({ queryKey: PACKAGES_KEY });
  const rows = list.data?.records ?? [];

  return (
    <PageFrame pageId="hjwsUpdate" testId="upgrade-packages" title={t('packagesTitle')}
      header={
        <Group>
          <TextInput size="xs" placeholder={t('search')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} w={220} data-testid="upgrade-search" />
          <Perm route={PACKAGES_ROUTE} button="upload"><Button size="xs" onClick={() => setOpen(true)} data-testid="upgrade-upload">{t('upload')}</Button></Perm>
        </Group>
      }
      dialogs={<Modal opened={open} onClose={() => setOpen(false)} title={t('upload')}>{open && <UploadForm onDone={() => { setOpen(false); refresh(); }} />}</Modal>}>
      {list.error && <Alert color="red">{errorText(list.error)}</Alert>}
      <Table withTableBorder striped data-testid="upgrade-package-table">
        <Table.Thead><Table.Tr>
          <Table.Th>{t('name')}</Table.Th><Table.Th>{t('version')}</Table.Th><Table.Th>{t('upgradeType')}</Table.Th><Table.Th>{t('makerId')}</Table.Th>
          <Table.Th>{t('size')}</Table.Th><Table.Th>SHA-256</Table.Th><Table.Th>{t('company')}</Table.Th><Table.Th>{t('uploader')}</Table.Th><Table.Th>{t('time')}</Table.Th><Table.Th>{t('actions')}</Table.Th>
        </Table.Tr></Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && !list.isLoading && <Table.Tr><Table.Td colSpan={10}><Text c="dimmed" size="sm">{t('noPackages')}</Text></Table.Td></Table.Tr>}
          {rows.map((p) => (
            <Table.Tr key={p.id} data-testid={`upgrade-package-${p.id}`}>
              <Table.Td>{p.name}</Table.Td><Table.Td>{p.version}</Table.Td><Table.Td>{t(`type.${p.upgradeType}`)}</Table.Td><Table.Td>{p.makerId}</Table.Td>
              <Table.Td>{formatSize(p.size)}</Table.Td><Table.Td title={p.sha256}><Text size="xs" ff="monospace">{p.sha256.slice(0, 12)}…</Text></Table.Td>
              <Table.Td>{p.companyName}</Table.Td><Table.Td>{p.createdByName}</Table.Td><Table.Td>{new Date(p.createTime).toLocaleString()}</Table.Td>
              <Table.Td>
                <DeleteRowButton route={PACKAGES_ROUTE} label={t('remove')} message={t('removeConfirm', { name: p.name })} deletedMessage={t('removed')}
                  onDelete={() => upgradeApi.remove([p.id])} onDeleted={refresh} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </PageFrame>
  );
}
