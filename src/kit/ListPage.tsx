import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Perm } from '../app/Perm.tsx';
import { CompanyTreePanel } from '../features/company-tree/CompanyTreePanel.tsx';
import { useT } from '../i18n/index.ts';
import { AuditTrailSlot } from './audit.tsx';
import type { ExportJob } from '../features/shared/ExportJobButton.tsx';
import { DeleteRowButton } from './DeleteRowButton.tsx';
import { ExportButton } from './ExportButton.tsx';
import { ImportButton, type ImportCall } from './ImportButton.tsx';
import { FilterBar } from './FilterBar.tsx';
import { KIT_NS } from './messages.ts';
import { PageFrame } from './PageFrame.tsx';
import { ResourceTable, type KitColumn } from './ResourceTable.tsx';
import { useResourceList, type ListQuery, type Page } from './useResourceList.ts';

/** The declaration of a list screen: what differs between screens, nothing else. */
export interface ListScreen<T extends { id: number }> {
  /** The one key: URL, permission route of every button, query-key prefix. */
  route: string;
  title: string;
  /** `data-page` of the screen's root (tests find the screen by it). */
  pageId: string;
  /** Company tree on the left; its selection is part of `scope`. `refreshToken` reloads it. */
  tree?: { refreshToken?: number };
  /** Text right of the title (e.g. which company the list shows). */
  header?: ReactNode;
  searchPlaceholder: string;
  /** The screen's own filter inputs after the keyword box. */
  filters?: ReactNode;
  /** Fetches one page. Everything it reads besides the page query goes into `scope`. */
  fetchPage: (q: ListQuery) => Promise<Page<T>>;
  /** Extra query-key parts (selected company, filters); a change goes back to page 1. */
  scope?: unknown;
  columns: KitColumn<T>[];
  /** 新增 behind the route's `create` bit. */
  onCreate?: () => void;
  /**
   * 导出 behind the route's `export` bit: the server's export job for the current keyword (the screen
   * adds its own filters and company). The file is built on the server, never from the rows shown.
   */
  exportJob?: (q: { keyword: string }) => ExportJob;
  /**
   * 导入 behind the route's `import` bit (or `create` where the registry has none, as the server's
   * import declares): the resource's .xlsx import (+ its template); the list refreshes after.
   */
  importCall?: ImportCall;
  /** Toolbar buttons after 新增 and 导出 (import, …), each wrapped in its own `<Perm>`. */
  toolbar?: ReactNode;
  /** 修改 behind the `update` bit. */
  onEdit?: (row: T) => void;
  /**
   * 删除 behind the `delete` bit, after a confirm naming the row (`message` replaces the kit's
   * question when the screen has more to say); the list refreshes after.
   */
  remove?: { name: (row: T) => string; message?: (row: T) => string; call: (row: T) => Promise<unknown>; done?: () => void };
  /** Row actions before 修改 (each behind its own `<Perm>`). */
  rowActions?: (row: T) => ReactNode;
  /** Refetch the page every this many ms, keeping page and filters; stops on error (useResourceList). @default undefined */
  refreshMs?: number;
  /** Width of the pinned action column, px. @default 160 */
  actionsWidth?: number;
  /** Dialogs and drawers of the screen. */
  children?: ReactNode;
}

/** Refetches every list and call of a route (after a write in a dialog). */
export function useInvalidate(route: string): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: [route] }), [client, route]);
}

/**
 * The list-page archetype: company tree, filters, a server-paged table with a pinned action column,
 * create/edit/delete behind the route's button bits, the audit slot, and the screen's dialogs.
 */
export function ListPage<T extends { id: number }>(screen: ListScreen<T>) {
  const t = useT(KIT_NS);
  const { route, remove } = screen;
  // Page, size and keyword live in the URL: a reload or a tab switch comes back to the same rows.
  const list = useResourceList(route, screen.fetchPage, screen.scope ?? null, { inUrl: true, refreshMs: screen.refreshMs });

  const actions = (row: T) => (
    <Group gap={4} wrap="nowrap">
      {screen.rowActions?.(row)}
      {screen.onEdit && (
        <Perm route={route} button="update">
          <Button size="compact-xs" variant="light" onClick={() => screen.onEdit?.(row)}>
            {t('edit')}
          </Button>
        </Perm>
      )}
      {remove && (
        <DeleteRowButton
          route={route}
          message={remove.message?.(row) ?? t('deleteConfirm', { name: remove.name(row) })}
          label={t('delete')}
          deletedMessage={t('deleted')}
          onDelete={() => remove.call(row)}
          onDeleted={() => {
            void list.invalidate();
            remove.done?.();
          }}
        />
      )}
      <AuditTrailSlot route={route} recordId={row.id} />
    </Group>
  );

  return (
    <PageFrame
      pageId={screen.pageId}
      aside={screen.tree && <CompanyTreePanel refreshToken={screen.tree.refreshToken} />}
      // The title keeps its line: a header that needs the room wraps (the vehicle counts beside the docked alarm pop-up).
      title={<span style={{ whiteSpace: 'nowrap' }}>{screen.title}</span>}
      header={screen.header}
      dialogs={screen.children}
    >
      <FilterBar placeholder={screen.searchPlaceholder} keyword={list.query.keyword} onSearch={list.search} route={route} filters={screen.filters}>
        {screen.onCreate && (
          <Perm route={route} button="create">
            <Button size="sm" onClick={screen.onCreate}>
              {t('create')}
            </Button>
          </Perm>
        )}
        {screen.exportJob && <ExportButton route={route} job={screen.exportJob({ keyword: list.query.keyword })} />}
        {screen.importCall && <ImportButton route={route} importCall={screen.importCall} onImported={() => void list.invalidate()} />}
        {screen.toolbar}
      </FilterBar>
      <ResourceTable list={list} columns={screen.columns} label={screen.title} actions={{ render: actions, width: screen.actionsWidth ?? 160 }} storeKey={route} />
    </PageFrame>
  );
}
