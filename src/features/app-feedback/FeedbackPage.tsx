/**
 * /system/feedback/appfeedback and /system/feedback/platformFeedBack (issue 19): feedback threads of the
 * caller's companies raised from the drivers' app or the console — filter by type, status and whether
 * an administrator has replied, open a thread (the author's posts become read), reply, close or reopen
 * it, export the filtered list as .xlsx.
 */
import { Badge, Button, Drawer, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FEEDBACK_CONTENT_MAX, FEEDBACK_TYPES } from '../../../domain/app-feedback/rules.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { formatTime } from '../system/ui/format.ts';
import { APP_FEEDBACK_ROUTE, feedbackApi, PLATFORM_FEEDBACK_ROUTE, type FeedbackSource, type Theme } from './api.ts';
import { APP_FEEDBACK_NS } from './messages.ts';

export const FEEDBACK_STATUS_COLOR: Record<number, string> = { 0: 'orange', 1: 'green', 2: 'gray' };

function ThreadDrawer({ route, id, onClose, onChanged }: { route: string; id: number; onClose: () => void; onChanged: () => void }) {
  const t = useT(APP_FEEDBACK_NS);
  const client = useQueryClient();
  const key = ['feedback-thread', id];
  const thread = useQuery({ queryKey: key, queryFn: () => feedbackApi.info(id) });
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const th = thread.data;
  const send = async () => {
    const v = text.trim();
    if (!v) return setError(t('fb.contentRequired'));
    setBusy(true);
    try {
      const next = await feedbackApi.reply(id, v);
      client.setQueryData(key, next);
      setText('');
      setError(null);
      notifications.show({ message: t('fb.sent'), color: 'green', autoClose: 1500 });
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const setStatus = async (status: 0 | 2) => {
    await feedbackApi.setStatus(id, status);
    await thread.refetch();
    onChanged();
  };
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={th ? th.title : t('fb.thread')} data-testid="feedback-thread">
      {th && (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light">{t(`type.${th.type}`)}</Badge>
            <Badge color={FEEDBACK_STATUS_COLOR[th.status]} variant="light" data-testid="thread-status" data-status={th.status}>{t(`status.${th.status}`)}</Badge>
            <Text size="sm" c="dimmed">{th.authorName} · {th.companyName}</Text>
          </Group>
          {th.posts.map((p) => (
            <Paper key={p.id} withBorder p="xs" bg={p.side === 2 ? 'var(--mantine-color-blue-light)' : undefined} data-testid="thread-post" data-side={p.side}>
              <Group justify="space-between" gap="xs">
                <Text size="xs" fw={600}>{p.side === 2 ? `${t('fb.admin')} · ${p.senderName}` : `${t('fb.author')} · ${p.senderName}`}</Text>
                <Text size="xs" c="dimmed">{formatTime(p.createTime)}{p.side === 2 ? ` · ${p.readTime ? t('fb.read') : t('fb.unreadMark')}` : ''}</Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{p.content}</Text>
            </Paper>
          ))}
          {th.status === 2 ? (
            <Text size="sm" c="dimmed">{t('fb.closedHint')}</Text>
          ) : (
            <Perm route={route} button="reply">
              <Textarea label={t('fb.reply')} placeholder={t('fb.replyPlaceholder')} autosize minRows={3} maxLength={FEEDBACK_CONTENT_MAX} value={text}
                onChange={(e) => { setText(e.currentTarget.value); setError(null); }} error={error} data-testid="feedback-reply-input" />
              <Group justify="flex-end">
                <Button loading={busy} onClick={() => void send()} data-testid="feedback-reply-send">{t('fb.send')}</Button>
              </Group>
            </Perm>
          )}
          <Perm route={route} button="updateStatus">
            <Group justify="flex-end">
              {th.status === 2
                ? <Button variant="light" onClick={() => void setStatus(0)} data-testid="feedback-reopen">{t('fb.reopen')}</Button>
                : <Button variant="light" color="gray" onClick={() => void setStatus(2)} data-testid="feedback-close">{t('fb.close')}</Button>}
            </Group>
          </Perm>
        </Stack>
      )}
    </Drawer>
  );
}

export function FeedbackPage({ source }: { source: FeedbackSource }) {
  const t = useT(APP_FEEDBACK_NS);
  const route = source === 1 ? APP_FEEDBACK_ROUTE : PLATFORM_FEEDBACK_ROUTE;
  const [type, setType] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [replied, setReplied] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const invalidate = useInvalidate(route);
  const filters = {
    source, type: type === null ? undefined : Number(type), status: status === null ? undefined : Number(status),
    replied: replied === null ? undefined : (Number(replied) as 0 | 1),
  };
  const columns: KitColumn<Theme>[] = [
    {
      key: 'title', title: t('fb.col.title'), minWidth: 160, maxWidth: 320,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500} truncate>{r.title}</Text>
          {r.unreadForAdmin > 0 && <Badge size="xs" color="red" data-testid="feedback-unread">{t('fb.unread', { n: r.unreadForAdmin })}</Badge>}
        </Group>
      ),
    },
    { key: 'type', title: t('fb.col.type'), minWidth: 70, maxWidth: 90, render: (r) => t(`type.${r.type}`) },
    { key: 'status', title: t('fb.col.status'), minWidth: 80, maxWidth: 100, render: (r) => <Badge color={FEEDBACK_STATUS_COLOR[r.status]} variant="light" data-testid="feedback-status" data-status={r.status}>{t(`status.${r.status}`)}</Badge> },
    { key: 'author', title: t('fb.col.author'), minWidth: 90, maxWidth: 140, render: (r) => r.authorName },
    { key: 'company', title: t('fb.col.company'), minWidth: 110, maxWidth: 200, render: (r) => r.companyName },
    { key: 'posts', title: t('fb.col.posts'), minWidth: 60, maxWidth: 80, align: 'right', render: (r) => r.messages - 1 },
    { key: 'time', title: t('fb.col.time'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.createTime) },
    { key: 'updated', title: t('fb.col.updated'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.updateTime) },
  ];
  return (
    <ListPage<Theme>
      route={route}
      pageId={source === 1 ? 'system-feedback-app' : 'system-feedback-platform'}
      title={source === 1 ? t('fb.appTitle') : t('fb.platformTitle')}
      tree={{}}
      searchPlaceholder={t('fb.search')}
      filters={
        <>
          <Select w={110} placeholder={t('fb.type')} clearable value={type} onChange={setType} data-testid="feedback-type-filter"
            data={FEEDBACK_TYPES.map((v) => ({ value: String(v), label: t(`type.${v}`) }))} />
          <Select w={110} placeholder={t('fb.status')} clearable value={status} onChange={setStatus} data-testid="feedback-status-filter"
            data={[0, 1, 2].map((v) => ({ value: String(v), label: t(`status.${v}`) }))} />
          <Select w={130} placeholder={t('fb.replied')} clearable value={replied} onChange={setReplied} data-testid="feedback-replied-filter"
            data={[{ value: '1', label: t('fb.repliedYes') }, { value: '0', label: t('fb.repliedNo') }]} />
        </>
      }
      fetchPage={(q) => feedbackApi.page({ ...filters, current: q.current, size: q.size, keyword: q.keyword || undefined })}
      scope={filters}
      exportJob={(q) => feedbackApi.exportJob({ ...filters, keyword: q.keyword || undefined })}
      columns={columns}
      actionsWidth={100}
      rowActions={(r) => <Button size="compact-xs" variant="light" onClick={() => setOpen(r.id)} data-action="open">{t('fb.open')}</Button>}
    >
      {open !== null && <ThreadDrawer route={route} id={open} onClose={() => { setOpen(null); void invalidate(); }} onChanged={() => void invalidate()} />}
    </ListPage>
  );
}
