import { useState, type ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { Perm } from '../app/Perm.tsx';
import { KIT_NS } from './messages.ts';

/**
 * Keyword box with search and reset, then the screen's own filter inputs; `children` are the page's
 * actions on the right. The search button is the page's `retrieve` button (spec §2 lists it among
 * the page's buttons).
 */
export function FilterBar({
  placeholder,
  keyword,
  onSearch,
  route,
  filters,
  children,
}: {
  placeholder: string;
  /** The keyword the list applies (e.g. restored from the URL): the box starts with it. */
  keyword?: string;
  onSearch: (keyword: string) => void;
  route: string;
  filters?: ReactNode;
  children?: ReactNode;
}) {
  const t = useT(KIT_NS);
  const [text, setText] = useState(keyword ?? '');
  return (
    <Group justify="space-between" wrap="nowrap">
      <Group
        gap="xs"
        wrap="nowrap"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(text);
        }}
      >
        <TextInput size="sm" w={240} value={text} onChange={(e) => setText(e.currentTarget.value)} placeholder={placeholder} aria-label={t('keyword')} />
        {filters}
        <Perm route={route} button="retrieve">
          <Button size="sm" type="submit" data-testid="search">
            {t('search')}
          </Button>
        </Perm>
        <Button
          size="sm"
          variant="default"
          onClick={() => {
            setText('');
            onSearch('');
          }}
        >
          {t('reset')}
        </Button>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {children}
      </Group>
    </Group>
  );
}
