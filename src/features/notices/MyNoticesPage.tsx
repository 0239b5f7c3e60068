/**
 * /system/message/messageList (issue 19): the notices I received, read and unread, newest first; opening
 * one marks it read (the header's bell follows), 全部标为已读 marks them all.
 */
import { Badge, Button, SegmentedControl, Text } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { formatTime } from '../system/ui/format.ts';
import { MY_NOTICES_KEY, NOTICE_LIST_ROUTE as ROUTE, noticeApi, type MyNotice } from './api.ts';
import { LEVEL_COLOR, NoticeDialog, useOpenNotice } from './NoticeBell.tsx';
import { NOTICES_NS } from './messages.ts';
import { useQueryClient } from '@tanstack/react-query';

export function MyNoticesPage() {
  const t = useT(NOTICES_NS);
  const [read, setRead] = useState<'all' | '0' | '1'>('all');
  const invalidate = useInvalidate(ROUTE);
  const client = useQueryClient();
  const { opened, open, close } = useOpenNotice();
  const refresh = () => {
    void invalidate();
    void client.invalidateQueries({ queryKey: [MY_NOTICES_KEY] });
  };

  const columns: KitColumn<MyNotice>[] = [
    {
      key: 'state', title: t('list.state'), minWidth: 70, maxWidth: 80,
      render: (n) => <Badge color={n.readTime === null ? 'red' : 'gray'} variant="light" data-read={n.readTime !== null}>{n.readTime === null ? t('list.unread') : t('list.read')}</Badge>,
    },
    { key: 'title', title: t('mgm.col.title'), minWidth: 180, maxWidth: 360, render: (n) => <Text size="sm" fw={n.readTime === null ? 600 : 400}>{n.title}</Text> },
    { key: 'level', title: t('mgm.col.level'), minWidth: 70, maxWidth: 90, render: (n) => <Badge color={LEVEL_COLOR[n.level]} variant="light">{t(`level.${n.level}`)}</Badge> },
    { key: 'sender', title: t('list.sender'), minWidth: 90, maxWidth: 140, render: (n) => n.senderName },
    { key: 'time', title: t('list.time'), minWidth: 130, maxWidth: 160, render: (n) => formatTime(n.publishTime) },
  ];

  return (
    <ListPage<MyNotice>
      route={ROUTE}
      pageId="system-message-list"
      title={t('list.title')}
      searchPlaceholder={t('list.search')}
      filters={
        <SegmentedControl value={read} onChange={(v) => setRead(v as 'all' | '0' | '1')} data-testid="my-notices-read"
          data={[{ value: 'all', label: t('list.all') }, { value: '0', label: t('list.unread') }, { value: '1', label: t('list.read') }]} />
      }
      fetchPage={(q) => noticeApi.mine({ current: q.current, size: q.size, title: q.keyword || undefined, read: read === 'all' ? undefined : (Number(read) as 0 | 1) })}
      scope={{ read }}
      columns={columns}
      actionsWidth={120}
      toolbar={
        <Button variant="light" onClick={() => void noticeApi.read({ all: true }).then(refresh)} data-testid="my-notices-read-all">{t('list.markAll')}</Button>
      }
      rowActions={(n) => (
        <Button size="compact-xs" variant="light" onClick={() => open(n.id)} data-action="open">{t('list.open')}</Button>
      )}
    >
      {opened && <NoticeDialog notice={opened} onClose={() => { close(); void invalidate(); }} />}
    </ListPage>
  );
}
