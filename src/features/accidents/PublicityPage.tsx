/**
 * 事故公示 (/safeManagement/accidentAnalysis/accidentPublicity, issue 19): the closed accidents of the
 * caller's companies (to publish as safety-education cases) and the cases other companies published to
 * them. Publish (title, summary, the companies that see it, each with its sub-companies), upload evidence
 * one file at a time (image, video or PDF, read by its bytes on the server), unpublish: bits 583–586.
 */
import { Alert, Badge, Button, FileInput, Group, Modal, MultiSelect, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ACCIDENT_LIMITS, label } from '../../../domain/accidents/rules.ts';
import { EVIDENCE_MAX_BYTES } from '../../../domain/accidents/evidence.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { searchTree } from '../company-tree/api.ts';
import { formatTime } from '../system/ui/format.ts';
import { AccidentDetail } from './AccidentDetail.tsx';
import { accidentApi, PUBLICITY_ROUTE, type PublicityRow } from './api.ts';
import { LEVEL_COLOR } from './ManualProcessingPage.tsx';
import { ACCIDENTS_NS } from './messages.ts';

function PublishModal({ row, onClose, onDone }: { row: PublicityRow; onClose: () => void; onDone: () => void }) {
  const t = useT(ACCIDENTS_NS);
  const [title, setTitle] = useState(row.title);
  const [summary, setSummary] = useState(row.summary || row.description);
  const [companies, setCompanies] = useState<string[]>([]);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hits = useQuery({
    queryKey: ['accident-publish-companies', search],
    queryFn: async () => (await searchTree(search.trim(), 50)).filter((h) => h.node.nodeType === 'C'),
    enabled: search.trim().length > 0,
  });
  const options = [
    ...companies.map((id) => ({ value: id, label: labels[id] ?? id })),
    ...(hits.data ?? []).filter((h) => !companies.includes(String(h.node.companyId))).map((h) => ({ value: String(h.node.companyId), label: h.node.name })),
  ];
  const submit = async () => {
    if (!title.trim()) return setError(t('titleRequired'));
    if (!summary.trim()) return setError(t('summaryRequired'));
    if (companies.length === 0) return setError(t('companiesRequired'));
    setBusy(true);
    try {
      await accidentApi.publish({ id: row.id, title: title.trim(), summary: summary.trim(), companyIds: companies.map(Number) });
      notifications.show({ color: 'green', message: t('done'), autoClose: 2000 });
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('publishTitle', { plate: row.plate })} size="lg">
      <Stack gap="sm" data-testid="accident-publish">
        <TextInput label={t('caseTitle')} withAsterisk maxLength={ACCIDENT_LIMITS.titleMax} value={title} onChange={(e) => setTitle(e.currentTarget.value)} data-testid="accident-publish-title" />
        <Textarea label={t('caseSummary')} withAsterisk autosize minRows={3} maxLength={ACCIDENT_LIMITS.summaryMax} value={summary} onChange={(e) => setSummary(e.currentTarget.value)} data-testid="accident-publish-summary" />
        <MultiSelect label={t('companies')} withAsterisk searchable data={options} value={companies} searchValue={search} onSearchChange={setSearch} filter={({ options: o }) => o}
          maxValues={ACCIDENT_LIMITS.publishCompaniesMax} data-testid="accident-publish-companies"
          onChange={(v) => { setCompanies(v); setLabels((old) => ({ ...old, ...Object.fromEntries(options.filter((o) => v.includes(o.value)).map((o) => [o.value, o.label])) })); setError(null); }} />
        {error && <Alert color="red" p={6} data-testid="accident-publish-error">{error}</Alert>}
        <Group justify="end"><Button onClick={() => void submit()} loading={busy} data-testid="accident-publish-submit">{t('publish')}</Button></Group>
      </Stack>
    </Modal>
  );
}

function UploadModal({ row, onClose, onDone }: { row: PublicityRow; onClose: () => void; onDone: () => void }) {
  const t = useT(ACCIDENTS_NS);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!file) return setError(t('fileRequired'));
    if (file.size > EVIDENCE_MAX_BYTES) return setError(t('fileTooBig'));
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy(true);
    try {
      await accidentApi.upload(row.id, form);
      notifications.show({ color: 'green', message: t('uploaded', { name: file.name }) });
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('uploadTitle', { plate: row.plate })}>
      <Stack gap="xs" data-testid="accident-upload">
        {/* One file: no `multiple` (spec §5). */}
        <FileInput label={t('file')} description={t('fileHint')} value={file} onChange={(f) => { setFile(f); setError(null); }} withAsterisk
          accept="image/jpeg,image/png,video/mp4,application/pdf,.jpg,.jpeg,.png,.mp4,.pdf" data-testid="accident-upload-file" />
        {error && <Alert color="red" p={6} data-testid="accident-upload-error">{error}</Alert>}
        <Group justify="end"><Button onClick={() => void submit()} loading={busy} data-testid="accident-upload-submit">{t('save')}</Button></Group>
      </Stack>
    </Modal>
  );
}

export function PublicityPage() {
  const t = useT(ACCIDENTS_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(PUBLICITY_ROUTE);
  const [shown, setShown] = useState<'all' | 'published' | 'unpublished'>('all');
  const [dialog, setDialog] = useState<{ kind: 'publish' | 'upload'; row: PublicityRow } | undefined>(undefined);
  const [detail, setDetail] = useState<number | undefined>(undefined);
  const unpublish = (r: PublicityRow) => modals.openConfirmModal({
    title: t('unpublish'), children: <Text size="sm">{t('unpublishConfirm', { title: r.title })}</Text>,
    labels: { confirm: t('unpublish'), cancel: '×' }, confirmProps: { color: 'red', 'data-testid': 'accident-unpublish-confirm' } as never,
    onConfirm: () => void accidentApi.unpublish(r.id).then(() => { notifications.show({ color: 'green', message: t('unpublishedDone') }); void invalidate(); }, (e: unknown) => notifications.show({ color: 'red', message: errorText(e) })),
  });
  const columns: KitColumn<PublicityRow>[] = [
    { key: 'published', title: t('state'), minWidth: 80, maxWidth: 100, render: (r) => <Badge color={r.published ? 'green' : 'gray'} variant="light">{r.published ? t('published') : t('unpublished')}</Badge> },
    { key: 'title', title: t('caseTitle'), minWidth: 140, maxWidth: 300, render: (r) => r.title || '—' },
    { key: 'plate', title: t('plate'), minWidth: 100, maxWidth: 140, render: (r) => r.plate },
    { key: 'time', title: t('time'), minWidth: 140, maxWidth: 170, render: (r) => formatTime(r.time) },
    { key: 'type', title: t('type'), minWidth: 80, maxWidth: 110, render: (r) => label('type', r.type, lang) },
    { key: 'level', title: t('level'), minWidth: 90, maxWidth: 120, render: (r) => <Badge color={LEVEL_COLOR[r.level]} variant="light">{label('level', r.level, lang)}</Badge> },
    { key: 'place', title: t('place'), minWidth: 140, maxWidth: 280, render: (r) => r.place },
    { key: 'fileCount', title: t('files'), minWidth: 70, maxWidth: 90, render: (r) => r.fileCount },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => (r.own ? r.companyName : t('sharedCase', { company: r.companyName })) },
    { key: 'publishTime', title: t('publishTime'), minWidth: 140, maxWidth: 170, render: (r) => (r.publishTime ? `${formatTime(r.publishTime)} ${r.publishedByName}` : '') },
  ];
  return (
    <ListPage<PublicityRow>
      route={PUBLICITY_ROUTE}
      pageId="accident-publicity"
      title={t('publicityTitle')}
      tree={{}}
      searchPlaceholder={t('publicitySearch')}
      filters={<SegmentedControl size="xs" value={shown} onChange={(v) => setShown(v as typeof shown)} data-testid="accident-publicity-shown"
        data={[{ value: 'all', label: t('all') }, { value: 'published', label: t('published') }, { value: 'unpublished', label: t('unpublished') }]} />}
      fetchPage={(q) => accidentApi.publicityPage({ current: q.current, size: q.size, keyword: q.keyword || undefined, ...(shown === 'all' ? {} : { published: shown === 'published' }) })}
      scope={{ companyId, shown }}
      columns={columns}
      actionsWidth={280}
      rowActions={(r) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="subtle" onClick={() => setDetail(r.id)} data-testid={`publicity-detail-${r.id}`}>{t('detail')}</Button>
          {r.own && <Perm route={PUBLICITY_ROUTE} button="publish"><Button size="compact-xs" variant="subtle" onClick={() => setDialog({ kind: 'publish', row: r })} data-testid={`publicity-publish-${r.id}`}>{r.published ? t('republish') : t('publish')}</Button></Perm>}
          {r.own && <Perm route={PUBLICITY_ROUTE} button="upload"><Button size="compact-xs" variant="subtle" onClick={() => setDialog({ kind: 'upload', row: r })} data-testid={`publicity-upload-${r.id}`}>{t('upload')}</Button></Perm>}
          {r.own && r.published && <Perm route={PUBLICITY_ROUTE} button="unpublish"><Button size="compact-xs" variant="subtle" color="red" onClick={() => unpublish(r)} data-testid={`publicity-unpublish-${r.id}`}>{t('unpublish')}</Button></Perm>}
        </Group>
      )}
    >
      {dialog?.kind === 'publish' && <PublishModal row={dialog.row} onClose={() => setDialog(undefined)} onDone={() => { setDialog(undefined); void invalidate(); }} />}
      {dialog?.kind === 'upload' && <UploadModal row={dialog.row} onClose={() => setDialog(undefined)} onDone={() => { setDialog(undefined); void invalidate(); }} />}
      {detail !== undefined && <AccidentDetail id={detail} onClose={() => setDetail(undefined)} />}
    </ListPage>
  );
}
