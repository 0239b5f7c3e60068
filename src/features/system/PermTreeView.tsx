import { memo } from 'react';
import { Badge, Checkbox, Group, Text, UnstyledButton } from '@mantine/core';
import { useLang, useT } from '../../i18n/index.ts';
import { Caret } from '../company-tree/icons.tsx';
import { SYSTEM_NS } from './messages.ts';
import { slotBitLabel, type PermissionTree, type PermNode } from './permission-tree.ts';
import type { PermissionRecord } from './types.ts';

export type PermTreeMode =
  | { kind: 'check'; granted: ReadonlySet<number>; onToggle: (id: number, on: boolean) => void; disabled?: (id: number) => boolean }
  | { kind: 'select'; selectedId: number | undefined; onSelect: (id: number) => void };

export interface PermTreeViewProps {
  tree: PermissionTree<PermissionRecord>;
  mode: PermTreeMode;
  /** Ids to show (a search); undefined shows all. A search opens every branch that matches. */
  visible?: ReadonlySet<number>;
  /** Opened branches; the caller may keep them to offer "expand all". */
  expanded: ReadonlySet<number>;
  onExpandedChange: (next: ReadonlySet<number>) => void;
  /** Show each record's id and slot/bit (administrators, on demand); names only otherwise. */
  showIds?: boolean;
}

/** Localised name of a permission record: the English name in English when there is one. */
export function permName(r: Pick<PermissionRecord, 'name' | 'nameEn'>, lang: string): string {
  return lang === 'en' && r.nameEn ? r.nameEn : r.name;
}

/**
 * The permission registry as a tree rooted at 'all permissions' (id 0). ~300 nodes: rendered
 * directly, collapsed by default below the first level.
 */
export function PermTreeView({ tree, mode, visible, expanded, onExpandedChange, showIds = false }: PermTreeViewProps) {
  const t = useT(SYSTEM_NS);
  const lang = useLang();
  const toggleOpen = (id: number) => {
    const next = new Set(expanded);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onExpandedChange(next);
  };
  const rootState = mode.kind === 'check' ? tree.state(mode.granted, 0) : undefined;
  return (
    <div role="tree" aria-label={t('priv.root')} data-testid="perm-tree">
      <Group gap={6} wrap="nowrap" py={3} role="treeitem" aria-expanded aria-level={1} data-perm-id={0}>
        <span style={{ width: 16 }} />
        {mode.kind === 'check' && rootState ? (
          <Checkbox
            size="xs"
            checked={rootState === 'checked'}
            indeterminate={rootState === 'indeterminate'}
            onChange={(e) => mode.onToggle(0, e.currentTarget.checked)}
            aria-label={t('priv.root')}
          />
        ) : null}
        <UnstyledButton onClick={() => mode.kind === 'select' && mode.onSelect(0)}>
          <Text size="sm" fw={600}>
            {t('priv.root')}
          </Text>
        </UnstyledButton>
      </Group>
      {tree.roots.map((n) => (
        <PermBranch key={n.record.id} node={n} depth={1} tree={tree} mode={mode} visible={visible} expanded={expanded} toggleOpen={toggleOpen} lang={lang} showIds={showIds} />
      ))}
      {visible && visible.size === 0 && (
        <Text size="sm" c="dimmed" p="xs">
          {t('priv.noMatch')}
        </Text>
      )}
    </div>
  );
}

interface BranchProps {
  node: PermNode<PermissionRecord>;
  depth: number;
  tree: PermissionTree<PermissionRecord>;
  mode: PermTreeMode;
  visible: ReadonlySet<number> | undefined;
  expanded: ReadonlySet<number>;
  toggleOpen: (id: number) => void;
  lang: string;
  showIds: boolean;
}

/** The hidden /global node holds console-wide rights (the alarm pop-up): its name alone explains nothing. */
const GLOBAL_KEY = '/global';

const PermBranch = memo(function PermBranch({ node, depth, tree, mode, visible, expanded, toggleOpen, lang, showIds }: BranchProps) {
  const t = useT(SYSTEM_NS);
  const r = node.record;
  if (visible && !visible.has(r.id)) return null;
  const hasKids = node.children.length > 0;
  // While searching every matching branch is open, so hits are never hidden.
  const open = hasKids && (visible !== undefined || expanded.has(r.id));
  const state = mode.kind === 'check' ? tree.state(mode.granted, r.id) : undefined;
  const selected = mode.kind === 'select' && mode.selectedId === r.id;
  const name = permName(r, lang);
  return (
    <>
      <Group
        gap={6}
        wrap="nowrap"
        py={2}
        pl={depth * 16}
        role="treeitem"
        aria-level={depth + 1}
        aria-expanded={hasKids ? open : undefined}
        aria-selected={selected}
        data-perm-id={r.id}
        style={{ borderRadius: 4, background: selected ? 'var(--mantine-primary-color-light)' : undefined }}
      >
        <span style={{ width: 16, display: 'inline-flex', justifyContent: 'center', flex: 'none' }}>
          {hasKids && (
            <UnstyledButton aria-label={name} onClick={() => toggleOpen(r.id)} style={{ display: 'inline-flex', padding: 3 }} disabled={visible !== undefined}>
              <Caret open={open} />
            </UnstyledButton>
          )}
        </span>
        {mode.kind === 'check' && state && (
          <Checkbox
            size="xs"
            checked={state === 'checked'}
            indeterminate={state === 'indeterminate'}
            disabled={mode.disabled?.(r.id)}
            onChange={(e) => mode.onToggle(r.id, e.currentTarget.checked)}
            aria-label={name}
          />
        )}
        <UnstyledButton onClick={() => (mode.kind === 'select' ? mode.onSelect(r.id) : hasKids && toggleOpen(r.id))} style={{ minWidth: 0 }}>
          <Text size="sm" truncate="end" fw={selected ? 600 : undefined}>
            {name}
          </Text>
        </UnstyledButton>
        <Badge size="xs" variant="outline" color={r.type === 1 ? 'blue' : 'orange'} style={{ flex: 'none' }}>
          {t(`priv.types.${r.type}`)}
        </Badge>
        {showIds && (
          <Text size="xs" c="dimmed" ff="monospace" style={{ flex: 'none' }} title={`${t('priv.slot')} / ${t('priv.bit')}`} data-testid="perm-ids">
            #{r.id} · {slotBitLabel(r.id)}
          </Text>
        )}
      </Group>
      {r.routeKey === GLOBAL_KEY && (
        <Text size="xs" c="dimmed" pl={depth * 16 + 22} pb={2} data-testid="perm-global-hint">
          {t('priv.globalHint')}
        </Text>
      )}
      {open &&
        node.children.map((c) => (
          <PermBranch key={c.record.id} node={c} depth={depth + 1} tree={tree} mode={mode} visible={visible} expanded={expanded} toggleOpen={toggleOpen} lang={lang} showIds={showIds} />
        ))}
    </>
  );
});
