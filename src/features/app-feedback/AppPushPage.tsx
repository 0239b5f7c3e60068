/**
 * /operation/messageManagement/messageNotification (issue 19): pushes to the drivers' app — write a
 * draft, publish it to whole companies or chosen app users (getUsersAndCompany), and follow each
 * recipient's delivery state: 待送达 until the app fetches it, 已送达, then 已读 when the app acknowledges.
 */
import { Badge, Button, Drawer, Group, Modal, MultiSelect, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { APP_NOTICE_CONTENT_MAX, APP_NOTICE_TITLE_MAX } from '../../../domain/app-feedback/rules.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { formatTime } from '../system/ui/format.ts';
import { APP_PUSH_ROUTE as ROUTE, appPushApi, type AppPush, type PushRecipient } from './api.ts';
import { APP_FEEDBACK_NS } from './messages.ts';

const STATE_COLOR: Record<PushRecipient['state'], string> = { queued: 'gray', delivered: 'blue', read: 'green' };
type Dialog = { kind: 'form'; push?: AppPush } | { kind: 'publish'; push: AppPush } | { kind: 'detail'; push: AppPush } | undefined;

function PushForm({ push, onClose, onSaved }: { push?: AppPush; onClose: () => void; onSaved: () => void }) {
  const t = useT(APP_FEEDBACK_NS);
  const form = useForm<{ title: string; content: string } & Record<string, unknown>>({
    initialValues: { title: push?.title ?? '', content: push?.content ?? '' },
    validate: {
      title: (v) => (!v.trim() ? t('push.form.titleRequired') : v.length > APP_NOTICE_TITLE_MAX ? t('push.form.tooLong', { n: APP_NOTICE_TITLE_MAX }) : null),
      // Spec §5: message content required.
      content: (v) => (!v.trim() ? t('push.form.contentRequired') : v.length > APP_NOTICE_CONTENT_MAX ? t('push.form.tooLong', { n: APP_NOTICE_CONTENT_MAX }) : null),
    },
  });
  return (
    <FormDrawer title={push ? t('push.form.editTitle') : t('push.form.createTitle')} form={form} testId="push-form" onClose={onClose} onSaved={onSaved}
      submit={(v) => (push ? appPushApi.update(push.id, { title: v.title, content: v.content }) : appPushApi.add({ title: v.title, content: v.content }))}>
      <TextInput label={t('push.form.title')} required maxLength={APP_NOTICE_TITLE_MAX} data-testid="push-title" {...form.getInputProps('title')} />
      <Textarea label={t('push.form.content')} required autosize minRows={4} maxLength={APP_NOTICE_CONTENT_MAX} data-testid="push-content" {...form.getInputProps('content')} />
    </FormDrawer>
  );
}

function PublishModal({ push, onClose, onDone }: { push: AppPush; onClose: () => void; onDone: () => void }) {
  const t = useT(APP_FEEDBACK_NS);
  const [mode, setMode] = useState<'users' | 'companies'>('users');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useQuery({ queryKey: ['app-push-picker'], queryFn: () => appPushApi.picker() });
  const companies = picker.data ?? [];
  const data = mode === 'companies'
    ? companies.map((c) => ({ value: String(c.companyId), label: `${c.companyName}（${c.users.length}）` }))
    : companies.map((c) => ({ group: c.companyName, items: c.users.map((u) => ({ value: String(u.id), label: `${u.realName || u.username}（${u.username}）` })) }));
  const submit = async () => {
    const ids = chosen.map(Number);
    if (ids.length === 0) return setError(t('push.pick.noTargets'));
    setBusy(true);
    try {
      const done = await appPushApi.publish(mode === 'companies' ? { id: push.id, companyIds: ids } : { id: push.id, appUserIds: ids });
      notifications.show({ message: t('push.pick.done', { n: done.recipients }), color: 'green', autoClose: 2000 });
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('push.pick.title', { name: push.title })} size="lg" data-testid="push-publish">
      <Stack gap="sm">
        <SegmentedControl value={mode} onChange={(v) => { setMode(v as 'users' | 'companies'); setChosen([]); setError(null); }}
          data={[{ value: 'users', label: t('push.pick.users') }, { value: 'companies', label: t('push.pick.companies') }]} />
        {picker.isSuccess && companies.length === 0 && <Text size="sm" c="dimmed">{t('push.pick.none')}</Text>}
        <MultiSelect searchable clearable data={data} value={chosen} onChange={(v) => { setChosen(v); setError(null); }} placeholder={t('push.pick.search')}
          maxValues={500} data-testid="push-targets" comboboxProps={{ withinPortal: true }} />
        {error && <Text c="red" size="sm" data-testid="push-publish-error">{error}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('push.pick.cancel')}</Button>
          <Button loading={busy} onClick={() => void submit()} data-testid="push-publish-submit">{t('push.pick.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function DetailDrawer({ push, onClose }: { push: AppPush; onClose: () => void }) {
  const t = useT(APP_FEEDBACK_NS);
  // Refreshes while open: the app fetches and acknowledges on its own time.
  const list = useResourceList<PushRecipient & { id: number }>(`${ROUTE}/recipients`, async (q) => {
    const page = await appPushApi.recipients({ id: push.id, current: q.current, size: q.size });
    return { total: page.total, records: page.records.map((r) => ({ ...r, id: r.appUserId })) };
  }, { id: push.id }, { refreshMs: 3000 });
  const columns: KitColumn<PushRecipient & { id: number }>[] = [
    { key: 'user', title: t('push.rec.user'), minWidth: 120, maxWidth: 200, render: (r) => `${r.realName || r.username}（${r.username}）` },
    { key: 'company', title: t('push.rec.company'), minWidth: 110, maxWidth: 200, render: (r) => r.companyName },
    { key: 'state', title: t('push.rec.state'), minWidth: 80, maxWidth: 100, render: (r) => <Badge color={STATE_COLOR[r.state]} variant="light" data-testid="push-state" data-state={r.state}>{t(`push.state.${r.state}`)}</Badge> },
    { key: 'sent', title: t('push.rec.sent'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.sendTime) },
    { key: 'delivered', title: t('push.rec.delivered'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.deliveredTime) || '—' },
    { key: 'read', title: t('push.rec.read'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.readTime) || '—' },
  ];
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={`${t('push.detail')} · ${push.title}`} data-testid="push-detail">
      <ResourceTable list={list} columns={columns} label={t('push.detail')} />
    </Drawer>
  );
}

export function AppPushPage() {
  const t = useT(APP_FEEDBACK_NS);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [status, setStatus] = useState<string | null>(null);
  const invalidate = useInvalidate(ROUTE);
  const done = () => {
    setDialog(undefined);
    void invalidate();
  };
  const columns: KitColumn<AppPush>[] = [
    { key: 'title', title: t('push.col.title'), minWidth: 140, maxWidth: 260, render: (r) => <Text size="sm" fw={500}>{r.title}</Text> },
    { key: 'content', title: t('push.col.content'), minWidth: 160, maxWidth: 360, render: (r) => <Text size="sm" truncate>{r.content}</Text> },
    { key: 'status', title: t('push.col.status'), minWidth: 70, maxWidth: 90, render: (r) => <Badge color={r.status === 1 ? 'green' : 'gray'} variant="light" data-status={r.status}>{t(`push.status.${r.status}`)}</Badge> },
    { key: 'progress', title: t('push.col.progress'), minWidth: 120, maxWidth: 150, align: 'right', render: (r) => (r.status === 0 ? '—' : `${r.delivered} / ${r.readCount} / ${r.recipients}`) },
    { key: 'author', title: t('push.col.author'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'time', title: t('push.col.time'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.publishTime) || '—' },
  ];
  return (
    <ListPage<AppPush>
      route={ROUTE}
      pageId="operation-app-push"
      title={t('push.title')}
      tree={{}}
      searchPlaceholder={t('push.search')}
      filters={
        <Select w={120} placeholder={t('push.statusFilter')} clearable value={status} onChange={setStatus}
          data={[0, 1].map((s) => ({ value: String(s), label: t(`push.status.${s}`) }))} />
      }
      fetchPage={(q) => appPushApi.page({ current: q.current, size: q.size, title: q.keyword || undefined, status: status === null ? undefined : Number(status) })}
      scope={{ status }}
      columns={columns}
      actionsWidth={220}
      refreshMs={5000}
      onCreate={() => setDialog({ kind: 'form' })}
      remove={{ name: (r) => r.title, call: (r) => appPushApi.remove([r.id]) }}
      rowActions={(r) => (
        <>
          {r.status === 0 && (
            <Perm route={ROUTE} button="update">
              <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'form', push: r })} data-action="edit">{t('push.edit')}</Button>
            </Perm>
          )}
          {r.status === 0 && (
            <Perm route={ROUTE} button="publish">
              <Button size="compact-xs" variant="light" color="green" onClick={() => setDialog({ kind: 'publish', push: r })} data-action="publish">{t('push.publish')}</Button>
            </Perm>
          )}
          {r.status === 1 && (
            <Button size="compact-xs" variant="light" color="gray" onClick={() => setDialog({ kind: 'detail', push: r })} data-action="detail">{t('push.detail')}</Button>
          )}
        </>
      )}
    >
      {dialog?.kind === 'form' && <PushForm push={dialog.push} onClose={() => setDialog(undefined)} onSaved={done} />}
      {dialog?.kind === 'publish' && <PublishModal push={dialog.push} onClose={() => setDialog(undefined)} onDone={done} />}
      {dialog?.kind === 'detail' && <DetailDrawer push={dialog.push} onClose={() => setDialog(undefined)} />}
    </ListPage>
  );
}
