/**
 * /system/message/messageMgm (issue 19): notices written in the caller's companies — add and edit drafts,
 * publish to companies (with or without sub-companies) or chosen users, withdraw, delete, and the
 * delivery log (msgLog: who received what, when it reached a console, when it was read).
 */
import { Badge, Button, Checkbox, Drawer, Group, Modal, MultiSelect, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { searchTree } from '../company-tree/api.ts';
import { formatTime } from '../system/ui/format.ts';
import { NOTICE_MGM_ROUTE as ROUTE, noticeApi, type MsgLogRow, type Notice, type NoticeInput, type NoticeLevel } from './api.ts';
import { LEVEL_COLOR } from './NoticeBell.tsx';
import { NOTICES_NS } from './messages.ts';

/** The server's limits (server/services/notices/index.ts). */
const TITLE_MAX = 100;
const CONTENT_MAX = 5000;
const STATUS_COLOR: Record<number, string> = { 0: 'gray', 1: 'green', 2: 'dark' };

type Dialog = { kind: 'form'; notice?: Notice } | { kind: 'publish'; notice: Notice } | { kind: 'log'; notice?: Notice } | undefined;

function NoticeForm({ notice, onClose, onSaved }: { notice?: Notice; onClose: () => void; onSaved: () => void }) {
  const t = useT(NOTICES_NS);
  const form = useForm<NoticeInput & Record<string, unknown>>({
    initialValues: { title: notice?.title ?? '', content: notice?.content ?? '', level: notice?.level ?? 1 },
    validate: {
      title: (v) => (!v.trim() ? t('form.titleRequired') : v.length > TITLE_MAX ? t('form.tooLong', { n: TITLE_MAX }) : null),
      // Spec §5: message content required.
      content: (v) => (!v.trim() ? t('form.contentRequired') : v.length > CONTENT_MAX ? t('form.tooLong', { n: CONTENT_MAX }) : null),
    },
  });
  return (
    <FormDrawer title={notice ? t('form.editTitle') : t('form.createTitle')} form={form} testId="notice-form" onClose={onClose} onSaved={onSaved}
      submit={(v) => (notice ? noticeApi.update(notice.id, { title: v.title, content: v.content, level: v.level }) : noticeApi.add({ title: v.title, content: v.content, level: v.level }))}>
      <TextInput label={t('form.title')} required maxLength={TITLE_MAX} data-testid="notice-title" {...form.getInputProps('title')} />
      <Select label={t('form.level')} data={[1, 2, 3].map((l) => ({ value: String(l), label: t(`level.${l}`) }))} allowDeselect={false}
        value={String(form.values.level)} onChange={(v) => form.setFieldValue('level', Number(v ?? 1) as NoticeLevel)} />
      <Textarea label={t('form.content')} required autosize minRows={6} maxRows={16} maxLength={CONTENT_MAX} data-testid="notice-content-input" {...form.getInputProps('content')} />
    </FormDrawer>
  );
}

function PublishModal({ notice, onClose, onDone }: { notice: Notice; onClose: () => void; onDone: () => void }) {
  const t = useT(NOTICES_NS);
  const [mode, setMode] = useState<'companies' | 'users'>('companies');
  const [companies, setCompanies] = useState<string[]>([]);
  const [companyLabels, setCompanyLabels] = useState<Record<string, string>>({});
  const [includeSub, setIncludeSub] = useState(true);
  const [users, setUsers] = useState<string[]>([]);
  const [userLabels, setUserLabels] = useState<Record<string, string>>({});
  const [companySearch, setCompanySearch] = useState('');
  const [userSearch, setUserSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const companyHits = useQuery({
    queryKey: ['notice-publish-companies', companySearch],
    queryFn: async () => (await searchTree(companySearch.trim() || ' ', 50)).filter((h) => h.node.nodeType === 'C'),
    enabled: mode === 'companies' && companySearch.trim().length > 0,
  });
  const userHits = useQuery({
    queryKey: ['notice-publish-users', userSearch],
    queryFn: () => noticeApi.recipients({ current: 1, size: 50, keyword: userSearch.trim() || undefined }),
    enabled: mode === 'users',
  });
  const companyOptions = [
    ...companies.map((id) => ({ value: id, label: companyLabels[id] ?? id })),
    ...(companyHits.data ?? []).filter((h) => !companies.includes(String(h.node.companyId))).map((h) => ({ value: String(h.node.companyId), label: h.node.name })),
  ];
  const userOptions = [
    ...users.map((id) => ({ value: id, label: userLabels[id] ?? id })),
    ...(userHits.data?.records ?? []).filter((u) => !users.includes(String(u.id))).map((u) => ({ value: String(u.id), label: `${u.realName || u.username}（${u.username} · ${u.companyName}）` })),
  ];
  const submit = async () => {
    const ids = (mode === 'companies' ? companies : users).map(Number);
    if (ids.length === 0) {
      setError(t('publish.noTargets'));
      return;
    }
    setBusy(true);
    try {
      const done = await noticeApi.publish(mode === 'companies' ? { id: notice.id, companyIds: ids, includeSub } : { id: notice.id, userIds: ids });
      notifications.show({ message: t('mgm.published', { n: done.recipients }), color: 'green', autoClose: 2000 });
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('publish.title', { name: notice.title })} size="lg" data-testid="notice-publish">
      <Stack gap="sm">
        <SegmentedControl value={mode} onChange={(v) => { setMode(v as 'companies' | 'users'); setError(null); }}
          data={[{ value: 'companies', label: t('publish.companies') }, { value: 'users', label: t('publish.users') }]} data-testid="publish-mode" />
        {mode === 'companies' ? (
          <>
            <MultiSelect label={t('publish.pickCompanies')} searchable data={companyOptions} value={companies} data-testid="publish-companies"
              searchValue={companySearch} onSearchChange={setCompanySearch} filter={({ options }) => options} maxValues={500}
              onChange={(v) => {
                setCompanies(v);
                setCompanyLabels((old) => ({ ...old, ...Object.fromEntries(companyOptions.filter((o) => v.includes(o.value)).map((o) => [o.value, o.label])) }));
                setError(null);
              }} />
            <Checkbox label={t('publish.includeSub')} checked={includeSub} onChange={(e) => setIncludeSub(e.currentTarget.checked)} data-testid="publish-include-sub" />
          </>
        ) : (
          <MultiSelect label={t('publish.pickUsers')} searchable data={userOptions} value={users} data-testid="publish-users"
            searchValue={userSearch} onSearchChange={setUserSearch} filter={({ options }) => options} maxValues={500}
            onChange={(v) => {
              setUsers(v);
              setUserLabels((old) => ({ ...old, ...Object.fromEntries(userOptions.filter((o) => v.includes(o.value)).map((o) => [o.value, o.label])) }));
              setError(null);
            }} />
        )}
        {error && <Text c="red" size="sm" data-testid="publish-error">{error}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('bell.close')}</Button>
          <Button loading={busy} onClick={() => void submit()} data-testid="publish-submit">{t('publish.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The delivery log (msgLog/page), of one notice or of all in scope. */
function LogDrawer({ notice, onClose }: { notice?: Notice; onClose: () => void }) {
  const t = useT(NOTICES_NS);
  const [read, setRead] = useState<'all' | '0' | '1'>('all');
  const list = useResourceList<MsgLogRow & { id: number }>(`${ROUTE}/log`, async (q) => {
    const page = await noticeApi.log({ current: q.current, size: q.size, noticeId: notice?.id, read: read === 'all' ? undefined : (Number(read) as 0 | 1), keyword: q.keyword || undefined });
    return { total: page.total, records: page.records.map((r, i) => ({ ...r, id: (q.current - 1) * q.size + i + 1 })) };
  }, { notice: notice?.id ?? null, read });
  const columns: KitColumn<MsgLogRow & { id: number }>[] = [
    { key: 'title', title: t('log.notice'), minWidth: 140, maxWidth: 260, render: (r) => r.title },
    { key: 'recipient', title: t('log.recipient'), minWidth: 110, maxWidth: 180, render: (r) => `${r.realName || r.username}（${r.username}）` },
    { key: 'company', title: t('log.company'), minWidth: 110, maxWidth: 200, render: (r) => r.companyName },
    { key: 'send', title: t('log.sendTime'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.sendTime) },
    { key: 'delivered', title: t('log.delivered'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.deliveredTime) || '—' },
    { key: 'read', title: t('log.readTime'), minWidth: 130, maxWidth: 160, render: (r) => (r.readTime ? formatTime(r.readTime) : <Badge color="red" variant="light">{t('list.unread')}</Badge>) },
  ];
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={notice ? `${t('log.title')} · ${notice.title}` : t('log.title')} data-testid="notice-log">
      <Stack gap="sm">
        <Group>
          <SegmentedControl value={read} onChange={(v) => setRead(v as 'all' | '0' | '1')}
            data={[{ value: 'all', label: t('log.all') }, { value: '0', label: t('log.unreadOnly') }, { value: '1', label: t('log.readOnly') }]} />
          <TextInput placeholder={t('log.search')} defaultValue={list.query.keyword} onKeyDown={(e) => { if (e.key === 'Enter') list.search(e.currentTarget.value); }} />
        </Group>
        <ResourceTable list={list} columns={columns} label={t('log.title')} />
      </Stack>
    </Drawer>
  );
}

export function NoticeManagePage() {
  const t = useT(NOTICES_NS);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [status, setStatus] = useState<string | null>(null);
  const invalidate = useInvalidate(ROUTE);
  const done = () => {
    setDialog(undefined);
    void invalidate();
  };
  const withdraw = (n: Notice) =>
    modals.openConfirmModal({
      title: t('mgm.withdraw'),
      children: <Text size="sm">{t('mgm.withdrawConfirm', { name: n.title })}</Text>,
      labels: { confirm: t('mgm.withdraw'), cancel: t('bell.close') },
      confirmProps: { color: 'red', 'data-testid': 'withdraw-confirm' } as Record<string, string>,
      onConfirm: () => void noticeApi.withdraw(n.id).then(() => {
        notifications.show({ message: t('mgm.withdrawn'), autoClose: 2000 });
        void invalidate();
      }),
    });

  const targets = (n: Notice) => {
    if (n.targets.length === 0) return '—';
    const users = n.targets.filter((x) => 'userId' in x).length;
    if (users > 0) return t('mgm.targetsUsers', { n: users });
    return n.targets.map((x) => ('companyId' in x ? (x.includeSub ? t('mgm.targetsSub', { name: x.companyName }) : x.companyName) : '')).join('、');
  };

  const columns: KitColumn<Notice>[] = [
    { key: 'title', title: t('mgm.col.title'), minWidth: 160, maxWidth: 320, render: (n) => <Text size="sm" fw={500}>{n.title}</Text> },
    { key: 'level', title: t('mgm.col.level'), minWidth: 70, maxWidth: 90, render: (n) => <Badge color={LEVEL_COLOR[n.level]} variant="light">{t(`level.${n.level}`)}</Badge> },
    { key: 'status', title: t('mgm.col.status'), minWidth: 80, maxWidth: 100, render: (n) => <Badge color={STATUS_COLOR[n.status]} variant="light" data-status={n.status}>{t(`status.${n.status}`)}</Badge> },
    { key: 'targets', title: t('mgm.col.targets'), minWidth: 140, maxWidth: 280, render: targets },
    { key: 'read', title: t('mgm.col.readCount'), minWidth: 90, maxWidth: 110, align: 'right', render: (n) => (n.status === 0 ? '—' : `${n.readCount} / ${n.recipients}`) },
    { key: 'author', title: t('mgm.col.author'), minWidth: 90, maxWidth: 140, render: (n) => n.createdByName },
    { key: 'time', title: t('mgm.col.time'), minWidth: 130, maxWidth: 160, render: (n) => formatTime(n.publishTime) || '—' },
  ];

  return (
    <ListPage<Notice>
      route={ROUTE}
      pageId="system-message-mgm"
      title={t('mgm.title')}
      tree={{}}
      searchPlaceholder={t('mgm.search')}
      filters={
        <Select w={120} placeholder={t('mgm.statusFilter')} clearable value={status} onChange={setStatus} data-testid="notice-status-filter"
          data={[0, 1, 2].map((s) => ({ value: String(s), label: t(`status.${s}`) }))} />
      }
      fetchPage={(q) => noticeApi.page({ current: q.current, size: q.size, title: q.keyword || undefined, status: status === null ? undefined : Number(status) })}
      scope={{ status }}
      columns={columns}
      actionsWidth={260}
      onCreate={() => setDialog({ kind: 'form' })}
      toolbar={
        <Perm route={ROUTE} button="log">
          <Button variant="light" onClick={() => setDialog({ kind: 'log' })} data-testid="notice-log-all">{t('mgm.log')}</Button>
        </Perm>
      }
      remove={{ name: (n) => n.title, call: (n) => noticeApi.remove([n.id]) }}
      rowActions={(n) => (
        <>
          {n.status === 0 && (
            <Perm route={ROUTE} button="update">
              <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'form', notice: n })} data-action="edit">{t('mgm.edit')}</Button>
            </Perm>
          )}
          {n.status === 0 && (
            <Perm route={ROUTE} button="publish">
              <Button size="compact-xs" variant="light" color="green" onClick={() => setDialog({ kind: 'publish', notice: n })} data-action="publish">{t('mgm.publish')}</Button>
            </Perm>
          )}
          {n.status === 1 && (
            <Perm route={ROUTE} button="withdraw">
              <Button size="compact-xs" variant="light" color="red" onClick={() => withdraw(n)} data-action="withdraw">{t('mgm.withdraw')}</Button>
            </Perm>
          )}
          {n.status !== 0 && (
            <Perm route={ROUTE} button="log">
              <Button size="compact-xs" variant="light" color="gray" onClick={() => setDialog({ kind: 'log', notice: n })} data-action="log">{t('mgm.log')}</Button>
            </Perm>
          )}
        </>
      )}
    >
      {dialog?.kind === 'form' && <NoticeForm notice={dialog.notice} onClose={() => setDialog(undefined)} onSaved={done} />}
      {dialog?.kind === 'publish' && <PublishModal notice={dialog.notice} onClose={() => setDialog(undefined)} onDone={done} />}
      {dialog?.kind === 'log' && <LogDrawer notice={dialog.notice} onClose={() => setDialog(undefined)} />}
    </ListPage>
  );
}
