import { useState, type ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { Perm } from '../app/Perm.tsx';
import { KIT_NS } from './messages.ts';

/** The inputs' narrowest share of a line beside the actions: the keyword box and one filter. */
const FORM_MIN_PX = 400;

/**
 * Keyword box with search and reset, then the screen's own filter inputs; `children` are the page's
 * actions on the right. The search button is the page's `retrieve` button (spec §2 lists it among
 * the page's buttons).
 *
 * Wraps instead of overflowing: the inputs flow onto further lines (查询 and 重置 stay together), the
 * page's actions stay together at the right of the first line, or on a line of their own at the right
 * when the inputs need the whole width (a 1280-px screen with the tree and the docked alarm pop-up).
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
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs" data-testid="filter-bar">
      <Group
        gap="xs"
        wrap="wrap"
        align="flex-start"
        component="form"
        // Beside the actions while the keyword box and one filter fit; else the whole line (the actions go below).
        style={{ flex: `1 1 ${FORM_MIN_PX}px`, minWidth: 0 }}
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(text);
        }}
        data-testid="filter-bar-inputs"
      >
        <TextInput size="sm" w={240} maw="100%" value={text} onChange={(e) => setText(e.currentTarget.value)} placeholder={placeholder} aria-label={t('keyword')} />
        {filters}
        <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
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
      </Group>
      {children !== undefined && children !== null && children !== false && (
        <Group gap="xs" wrap="nowrap" style={{ flex: 'none', marginLeft: 'auto' }} data-testid="filter-bar-actions">
          {children}
        </Group>
      )}
    </Group>
  );
}
