/**
 * The header's bell (issue 19): this user's unread notice count, pushed (`noticeUnread`) so a notice
 * published meanwhile shows without a reload, and a dropdown of the latest notices (unread first).
 * Clicking one opens it and marks it read (the count falls on this user's other consoles too).
 */
import { ActionIcon, Badge, Button, Group, Indicator, Menu, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { navigateHref } from '../../app/navigate.ts';
import { useT } from '../../i18n/index.ts';
import { useAccess, useSession } from '../../session/store.ts';
import { formatTime } from '../system/ui/format.ts';
import { MY_NOTICES_KEY, NOTICE_LIST_ROUTE, noticeApi, type MyNotice } from './api.ts';
import { NOTICES_NS } from './messages.ts';
import { useNoticePush } from './useNoticePush.ts';

export const LEVEL_COLOR: Record<number, string> = { 1: 'gray', 2: 'orange', 3: 'red' };

function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.7 21a2 2 0 0 1-3.4 0" />
    </svg>
  );
}

/** One notice opened in a dialog; opening it marks it read. */
export function NoticeDialog({ notice, onClose }: { notice: MyNotice; onClose: () => void }) {
  const t = useT(NOTICES_NS);
  return (
    <Modal opened onClose={onClose} title={notice.title} size="lg" data-testid="notice-dialog">
      <Stack gap="sm">
        <Group gap="xs">
          <Badge color={LEVEL_COLOR[notice.level]} variant="light">{t(`level.${notice.level}`)}</Badge>
          <Text size="sm" c="dimmed">{notice.senderName} · {formatTime(notice.publishTime)}</Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="notice-content">{notice.content}</Text>
        <Group justify="flex-end">
          <Button variant="light" onClick={onClose}>{t('bell.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Opens a notice: reads it from the server (which marks it read) and refetches the counts. */
export function useOpenNotice(): { opened: MyNotice | null; open: (id: number) => void; close: () => void } {
  const client = useQueryClient();
  const [opened, setOpened] = useState<MyNotice | null>(null);
  return {
    opened,
    open: (id) => {
      void noticeApi.open(id).then((n) => {
        setOpened(n);
        client.setQueryData<{ unread: number; records: MyNotice[] }>([MY_NOTICES_KEY, 'latest'], (old) => (old ? { ...old, unread: n.unread } : old));
        void client.invalidateQueries({ queryKey: [MY_NOTICES_KEY] });
      });
    },
    close: () => setOpened(null),
  };
}

export function NoticeBell() {
  const t = useT(NOTICES_NS);
  const signedIn = useSession().user !== null;
  const access = useAccess();
  const client = useQueryClient();
  useNoticePush(signedIn);
  const latest = useQuery({ queryKey: [MY_NOTICES_KEY, 'latest'], queryFn: () => noticeApi.latest(), enabled: signedIn });
  const { opened, open, close } = useOpenNotice();
  const unread = latest.data?.unread ?? 0;
  const records = latest.data?.records ?? [];
  const canList = access.canSeeRoute(NOTICE_LIST_ROUTE);

  return (
    <>
      <Menu position="bottom-end" width={340} withinPortal>
        {/* The count sits over the bell's corner: clicks on it go to the bell (as on the alarm bell). */}
        <Menu.Target>
          <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} color="red" offset={4} styles={{ indicator: { pointerEvents: 'none' } }}>
            <ActionIcon variant="subtle" size="lg" aria-label={t('bell.label')} title={t('bell.label')} data-testid="notice-bell" data-unread={unread}>
              <BellIcon />
            </ActionIcon>
          </Indicator>
        </Menu.Target>
        <Menu.Dropdown data-testid="notice-dropdown">
          <Menu.Label>{unread > 0 ? t('bell.unread', { n: unread }) : t('bell.label')}</Menu.Label>
          {records.length === 0 && <Text size="sm" c="dimmed" px="sm" py="xs">{t('bell.none')}</Text>}
          {records.map((n) => (
            <Menu.Item key={n.id} onClick={() => open(n.id)} data-testid="notice-item" data-notice-id={n.id} data-read={n.readTime !== null}>
              <UnstyledButton component="div">
                <Group gap={6} wrap="nowrap">
                  {n.readTime === null && <Badge size="xs" circle color="red" aria-label={t('list.unread')}> </Badge>}
                  <Text size="sm" fw={n.readTime === null ? 600 : 400} lineClamp={1}>{n.title}</Text>
                </Group>
                <Text size="xs" c="dimmed">{n.senderName} · {formatTime(n.publishTime)}</Text>
              </UnstyledButton>
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Group justify="space-between" px="xs" py={4}>
            <Button size="compact-xs" variant="subtle" disabled={unread === 0} data-testid="notice-read-all"
              onClick={() => void noticeApi.read({ all: true }).then(() => client.invalidateQueries({ queryKey: [MY_NOTICES_KEY] }))}>
              {t('bell.allRead')}
            </Button>
            {canList && (
              <Button size="compact-xs" variant="subtle" onClick={() => void navigateHref(NOTICE_LIST_ROUTE)}>{t('bell.viewAll')}</Button>
            )}
          </Group>
        </Menu.Dropdown>
      </Menu>
      {opened && <NoticeDialog notice={opened} onClose={close} />}
    </>
  );
}
