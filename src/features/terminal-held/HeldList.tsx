/**
 * The list column of a held-resource screen: the name filter (plus the caller's buttons), the load
 * error with 重试, the scrolling rows (or the empty text) and the pager. Labels come from the caller's
 * namespace (`keywordPlaceholder`, `search`, `loadFailed`, `retry`, `empty`, `pageInfo`).
 */
import type { ReactNode } from 'react';
import { Alert, Button, Group, Pagination, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import type { ResourceList } from '../../kit/useResourceList.ts';
import { HELD_PAGE_SIZE } from './useHeldPage.ts';

export function HeldList<T>({ ns, page, testId, keywordTestId, actions, children }: {
  ns: string;
  page: { keyword: string; setKeyword: (v: string) => void; list: ResourceList<T>; refresh: () => void };
  testId: string;
  keywordTestId?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const t = useT(ns);
  const { keyword, setKeyword, list, refresh } = page;
  return (
    <>
      <Group gap="xs" wrap="nowrap">
        <TextInput size="sm" style={{ flex: 1 }} placeholder={t('keywordPlaceholder')} value={keyword} maxLength={64} onChange={(e) => setKeyword(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && list.search(keyword)} data-testid={keywordTestId} />
        <Button size="sm" onClick={() => list.search(keyword)}>{t('search')}</Button>
        {actions}
      </Group>
      {list.error !== undefined && (
        <Alert color="red">{t('loadFailed', { msg: errorText(list.error) })} <Button size="compact-xs" variant="subtle" onClick={refresh}>{t('retry')}</Button></Alert>
      )}
      <ScrollArea style={{ flex: 1 }} data-testid={testId}>
        <Stack gap={6}>
          {list.records.length === 0 && !list.fetching && <Text size="sm" c="dimmed">{t('empty')}</Text>}
          {children}
        </Stack>
      </ScrollArea>
      <Group justify="space-between" gap={4}>
        <Text size="xs" c="dimmed">{t('pageInfo', { total: list.total })}</Text>
        <Pagination size="sm" total={Math.max(1, Math.ceil(list.total / HELD_PAGE_SIZE))} value={list.query.current} onChange={list.setCurrent} siblings={0} />
      </Group>
    </>
  );
}
