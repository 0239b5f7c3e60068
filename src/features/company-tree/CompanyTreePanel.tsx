import { memo, useCallback, useEffect, useRef, useState, useSyncExternalStore, type CSSProperties, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Badge, Box, Button, Checkbox, CloseButton, Group, Loader, Paper, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { LazyTree, ROOT_KEY } from '../../../domain/company/lazy-tree.ts';
import { parseNodeId, selectedCompanyId, toggleChecked, type NodeType, type TreeNode } from '../../../domain/company/tree-node.ts';
import { useT } from '../../i18n/index.ts';
import { companySelection, useCompanySelection } from '../../session/company-selection.ts';
import { fetchTreeChildren, searchTree, type TreeSearchHit } from './api.ts';
import { Caret, NodeIcon } from './icons.tsx';
import { COMPANY_TREE_NS } from './messages.ts';
import { REFRESH_MS, type OnlineCounts } from './online-counts.ts';
import { LAYERS } from '../../shell/layers.ts';

/** Spec §5: at most 500 companies, vehicles or drivers at once. */
export const DEFAULT_MAX_CHECKED = 500;
const ROW_HEIGHT = 28;
const INDENT = 16;
const SEARCH_DEBOUNCE_MS = 300;

export interface CompanyTreePanelProps {
  /** Called after a click applied the selection rule; `companyId` is the company it selected. */
  onSelect?: (node: TreeNode, companyId: number) => void;
  /** Write the selected company into the shared `companySelection`. @default true */
  applySelection?: boolean;
  /** Show checkboxes on nodes of `checkableTypes` (e.g. vehicles to monitor). @default false */
  checkable?: boolean;
  /** Node types that get a checkbox. @default ['V'] */
  checkableTypes?: readonly NodeType[];
  /** Checked node ids (controlled); without it the panel keeps its own set. */
  checked?: ReadonlySet<string>;
  onCheckedChange?: (checked: ReadonlySet<string>) => void;
  /** Most nodes checked at once; a check past it is refused with a message. @default 500 */
  maxChecked?: number;
  /** Height of the panel (the rows area fills what the search box leaves). @default '100%' */
  height?: number | string;
  /** Change it to reload the roots and every open branch (after a company was created, moved or deleted). */
  refreshToken?: number;
  /** Show "online / total" on company nodes (the monitor), asked for the rows on screen. */
  onlineCounts?: OnlineCounts;
}

const NO_COUNTS = { subscribe: () => () => undefined, getVersion: () => 0 };

/**
 * The company tree (spec §2): lazy children from treeStruct, server-side search that opens the path
 * to a hit, virtualised rows so 500 companies and 20,000 vehicles stay fluid.
 * Rows live in a LazyTree (domain) that splices only the subtree a click changes; React renders
 * only the rows in view, each a memoised component keyed by node id.
 */
export function CompanyTreePanel({
  onSelect,
  applySelection = true,
  checkable = false,
  checkableTypes = ['V'],
  checked,
  onCheckedChange,
  maxChecked = DEFAULT_MAX_CHECKED,
  height = '100%',
  refreshToken,
  onlineCounts,
}: CompanyTreePanelProps) {
  const t = useT(COMPANY_TREE_NS);
  const [tree] = useState(() => new LazyTree());
  useSyncExternalStore(tree.subscribe, tree.getVersion);
  const rows = tree.rows;
  const selection = useCompanySelection();
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const [rootState, setRootState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const [ownChecked, setOwnChecked] = useState<ReadonlySet<string>>(new Set());
  const [limitHit, setLimitHit] = useState(false);
  const checkedSet = checked ?? ownChecked;

  const load = useCallback(
    async (id: string) => {
      tree.setLoading(id, true);
      setFailed((f) => without(f, id));
      try {
        tree.setChildren(id, await fetchTreeChildren(id));
      } catch {
        tree.setLoading(id, false);
        setFailed((f) => new Set(f).add(id));
      }
    },
    [tree],
  );

  const loadRoots = useCallback(async () => {
    setRootState('loading');
    try {
      const roots = await fetchTreeChildren();
      tree.setChildren(ROOT_KEY, roots);
      setRootState('ready');
      // One root (the usual case): open it so the first level shows at once.
      const only = roots.length === 1 ? roots[0] : undefined;
      if (only && tree.expand(only.id)) await load(only.id);
    } catch {
      setRootState('failed');
    }
  }, [tree, load]);

  useEffect(() => {
    void loadRoots();
  }, [loadRoots]);

  // Reload top-down so nodes that moved or were deleted disappear with their subtrees.
  const seenToken = useRef(refreshToken);
  useEffect(() => {
    if (seenToken.current === refreshToken) return;
    seenToken.current = refreshToken;
    void (async () => {
      try {
        tree.setChildren(ROOT_KEY, await fetchTreeChildren());
      } catch {
        return;
      }
      for (const row of [...tree.rows]) if (tree.node(row.id) && tree.isExpanded(row.id) && tree.isLoaded(row.id)) await load(row.id);
    })();
  }, [refreshToken, tree, load]);

  const toggle = useCallback(
    (id: string) => {
      if (tree.toggle(id) && !tree.isLoading(id)) void load(id);
    },
    [tree, load],
  );

  // Latest props in a ref so the row callbacks stay stable and memoised rows do not re-render.
  const latest = useRef({ onSelect, applySelection, rootCompanyId: selection.rootCompanyId, checkedSet, maxChecked, onCheckedChange });
  useEffect(() => {
    latest.current = { onSelect, applySelection, rootCompanyId: selection.rootCompanyId, checkedSet, maxChecked, onCheckedChange };
  });

  const select = useCallback(
    (node: TreeNode) => {
      const l = latest.current;
      const rootNode = tree.childIds(ROOT_KEY)?.[0];
      const root = l.rootCompanyId ?? (rootNode ? (tree.node(rootNode)?.companyId ?? 0) : 0);
      const companyId = selectedCompanyId(node, root);
      setSelectedId(node.id);
      if (l.applySelection) {
        companySelection.companyId = companyId;
        const line = node.nodeType === 'L' ? parseNodeId(node.id) : undefined;
        companySelection.line = line ? { id: line.id, name: node.name } : null;
      }
      l.onSelect?.(node, companyId);
    },
    [tree],
  );

  const check = useCallback((id: string) => {
    const l = latest.current;
    const r = toggleChecked(l.checkedSet, id, l.maxChecked);
    setLimitHit(r.refused);
    if (r.refused) return;
    setOwnChecked(r.checked);
    l.onCheckedChange?.(r.checked);
  }, []);

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer's functions are read during render on purpose; rows re-render through the tree's version.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => rows[i]?.id ?? i,
  });

  const reveal = useCallback(
    async (hit: TreeSearchHit) => {
      for (const ancestor of hit.path) {
        if (!tree.node(ancestor)) break;
        if (tree.expand(ancestor) || !tree.isLoaded(ancestor)) await load(ancestor);
      }
      const at = tree.indexOf(hit.node.id);
      if (at >= 0) virtualizer.scrollToIndex(at, { align: 'center' });
      select(tree.node(hit.node.id) ?? hit.node);
    },
    [tree, load, select, virtualizer],
  );

  const checkable_ = checkable ? new Set(checkableTypes) : undefined;

  // Online counts of the company rows on screen (after each render that may have moved them).
  const countsVersion = useSyncExternalStore(onlineCounts?.subscribe ?? NO_COUNTS.subscribe, onlineCounts?.getVersion ?? NO_COUNTS.getVersion);
  const visibleCompanies = virtualizer
    .getVirtualItems()
    .map((item) => tree.node(rows[item.index]?.id ?? ''))
    .filter((n): n is TreeNode => n?.nodeType === 'C')
    .map((n) => n.companyId)
    .join(',');
  useEffect(() => {
    if (!onlineCounts || !visibleCompanies) return;
    const ids = visibleCompanies.split(',').map(Number);
    onlineCounts.want(ids);
    // Vehicles go on and offline: the rows in view are asked again when their answers got old.
    const timer = setInterval(() => onlineCounts.want(ids), REFRESH_MS);
    return () => clearInterval(timer);
  }, [onlineCounts, visibleCompanies]);

  // Arrow keys move between rows (the rows are virtual, so scroll first, then focus the new row).
  const onTreeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const id = (e.target as HTMLElement).closest('[data-node-id]')?.getAttribute('data-node-id');
    if (!id) return;
    e.preventDefault();
    const next = tree.rows[tree.indexOf(id) + (e.key === 'ArrowDown' ? 1 : -1)];
    if (!next) return;
    virtualizer.scrollToIndex(tree.indexOf(next.id));
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-node-id="${next.id}"]`)?.focus());
  };

  return (
    <Stack gap={6} h={height} style={{ minHeight: 0 }} data-testid="company-tree">
      <TreeSearch onPick={reveal} />
      {checkable && (
        <Text size="xs" c={limitHit ? 'red' : 'dimmed'} role={limitHit ? 'alert' : undefined}>
          {limitHit ? t('maxChecked', { max: maxChecked }) : t('checkedCount', { count: checkedSet.size, max: maxChecked })}
        </Text>
      )}
      {rootState === 'loading' && (
        <Group justify="center" p="sm">
          <Loader size="sm" aria-label={t('loading')} />
        </Group>
      )}
      {rootState === 'failed' && (
        <Button variant="subtle" size="xs" onClick={() => void loadRoots()}>
          {t('loadFailed')}
        </Button>
      )}
      {rootState === 'ready' && rows.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" p="sm">
          {t('empty')}
        </Text>
      )}
      <div ref={scrollRef} role="tree" aria-label={t('treeLabel')} onKeyDown={onTreeKey} style={{ flex: 1, minHeight: 0, overflow: 'auto', contain: 'strict' }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            const node = row ? tree.node(row.id) : undefined;
            if (!row || !node) return null;
            return (
              <TreeRow
                key={row.id}
                node={node}
                depth={row.depth}
                top={item.start}
                expanded={tree.isExpanded(row.id)}
                loading={tree.isLoading(row.id)}
                failed={failed.has(row.id)}
                selected={selectedId === row.id}
                tabbable={selectedId === undefined ? item.index === 0 : selectedId === row.id}
                checked={checkable_?.has(node.nodeType) ? checkedSet.has(row.id) : undefined}
                online={node.nodeType === 'C' ? onlineCounts?.get(node.companyId)?.online : undefined}
                countsVersion={countsVersion}
                onToggle={toggle}
                onRetry={load}
                onSelect={select}
                onCheck={check}
              />
            );
          })}
        </div>
      </div>
    </Stack>
  );
}

function without(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (!set.has(id)) return set;
  const next = new Set(set);
  next.delete(id);
  return next;
}

interface TreeRowProps {
  node: TreeNode;
  depth: number;
  top: number;
  expanded: boolean;
  loading: boolean;
  failed: boolean;
  selected: boolean;
  /** The one row Tab reaches (roving tab index); arrows move from there. */
  tabbable: boolean;
  /** undefined: no checkbox on this row. */
  checked: boolean | undefined;
  /** Online vehicles of a company's subtree, when asked for (monitor). */
  online?: number | undefined;
  countsVersion?: number;
  onToggle: (id: string) => void;
  onRetry: (id: string) => Promise<void>;
  onSelect: (node: TreeNode) => void;
  onCheck: (id: string) => void;
}

const TreeRow = memo(function TreeRow({ node, depth, top, expanded, loading, failed, selected, tabbable, checked, online, onToggle, onRetry, onSelect, onCheck }: TreeRowProps) {
  const t = useT(COMPANY_TREE_NS);
  const style: CSSProperties = {
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    height: ROW_HEIGHT,
    transform: `translateY(${top}px)`,
    paddingLeft: 4 + depth * INDENT,
    display: 'flex',
    alignItems: 'center',
    gap: 4,
    cursor: 'pointer',
    borderRadius: 4,
    background: selected ? 'var(--mantine-primary-color-light)' : undefined,
    whiteSpace: 'nowrap',
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect(node);
    } else if (e.key === 'ArrowRight' && node.hasChildren && !expanded) onToggle(node.id);
    else if (e.key === 'ArrowLeft' && expanded) onToggle(node.id);
  };
  return (
    <div
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={node.hasChildren ? expanded : undefined}
      aria-selected={selected}
      tabIndex={tabbable ? 0 : -1}
      data-node-id={node.id}
      style={style}
      onClick={() => onSelect(node)}
      onKeyDown={onKey}
    >
      <span style={{ width: 16, display: 'inline-flex', justifyContent: 'center', flex: 'none' }}>
        {node.hasChildren &&
          (loading ? (
            <Loader size={10} />
          ) : (
            <UnstyledButton
              aria-label={expanded ? t('collapse') : t('expand')}
              tabIndex={-1}
              onClick={(e) => {
                e.stopPropagation();
                onToggle(node.id);
              }}
              style={{ display: 'inline-flex', padding: 3 }}
            >
              <Caret open={expanded} />
            </UnstyledButton>
          ))}
      </span>
      {checked !== undefined && (
        <Checkbox
          size="xs"
          checked={checked}
          aria-label={node.name}
          onClick={(e) => e.stopPropagation()}
          onChange={() => onCheck(node.id)}
        />
      )}
      <NodeIcon type={node.nodeType} label={t(`type.${node.nodeType}`)} />
      <Text size="sm" truncate="end" style={{ minWidth: 0 }} fw={selected ? 600 : undefined}>
        {node.name}
      </Text>
      {node.nodeType === 'C' && node.vehicleCount !== undefined && (
        <Badge
          size="xs"
          variant="light"
          color={online ? 'green' : 'gray'}
          style={{ flex: 'none' }}
          title={online === undefined ? t('vehicles', { count: node.vehicleCount }) : t('onlineOfTotal', { online, count: node.vehicleCount })}
          data-testid="node-count"
        >
          {online === undefined ? node.vehicleCount : `${online} / ${node.vehicleCount}`}
        </Badge>
      )}
      {node.nodeType === 'V' && node.deviceNo && (
        <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
          {node.deviceNo}
        </Text>
      )}
      {failed && (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          onClick={(e) => {
            e.stopPropagation();
            void onRetry(node.id);
          }}
        >
          {t('loadFailed')}
        </Button>
      )}
    </div>
  );
});

/** Debounced server search; picking a hit opens its path in the tree. */
function TreeSearch({ onPick }: { onPick: (hit: TreeSearchHit) => Promise<void> }) {
  const t = useT(COMPANY_TREE_NS);
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const [hits, setHits] = useState<{ keyword: string; list: TreeSearchHit[] } | undefined>(undefined);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!debounced) return;
    let stale = false;
    searchTree(debounced)
      .then((list) => {
        if (!stale) setHits({ keyword: debounced, list });
      })
      .catch(() => {
        if (!stale) setHits({ keyword: debounced, list: [] });
      });
    return () => {
      stale = true;
    };
  }, [debounced]);

  const current = debounced && hits?.keyword === debounced ? hits.list : undefined;
  const pick = (hit: TreeSearchHit) => {
    setOpen(false);
    void onPick(hit);
  };

  return (
    <Box pos="relative">
      <TextInput
        size="xs"
        value={query}
        maxLength={64}
        placeholder={t('searchPlaceholder')}
        aria-label={t('searchPlaceholder')}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && current?.[0]) pick(current[0]);
          if (e.key === 'Escape') setOpen(false);
        }}
        rightSection={query ? <CloseButton size="xs" aria-label={t('clear')} onClick={() => setQuery('')} /> : null}
      />
      {open && query.trim() && (
        <Paper withBorder shadow="md" pos="absolute" top="100%" left={0} right={0} style={{ zIndex: LAYERS.panelDropdown }} mt={2}>
          <ScrollArea.Autosize mah={260}>
            {current === undefined && (
              <Text size="xs" c="dimmed" p="xs">
                {t('searching')}
              </Text>
            )}
            {current?.length === 0 && (
              <Text size="xs" c="dimmed" p="xs">
                {t('noHits')}
              </Text>
            )}
            {current?.map((hit) => (
              <UnstyledButton
                key={hit.node.id}
                w="100%"
                px="xs"
                py={4}
                data-hit-id={hit.node.id}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(hit)}
                style={{ display: 'flex', gap: 6, alignItems: 'center' }}
              >
                <NodeIcon type={hit.node.nodeType} label={t(`type.${hit.node.nodeType}`)} />
                <Text size="sm" truncate="end">
                  {hit.node.name}
                </Text>
              </UnstyledButton>
            ))}
          </ScrollArea.Autosize>
        </Paper>
      )}
    </Box>
  );
}
