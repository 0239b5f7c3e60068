import { Badge, Group, NavLink } from '@mantine/core';
import { memo, useMemo, type MouseEvent } from 'react';
import { menuTitle, useLang, useT } from '../i18n/index.ts';
import { useAccess } from '../session/store.ts';
import { buildMenu, groupsOf, type MenuNode } from './menu-model.ts';
import { hrefOf, openRoute } from './open-route.ts';

interface ItemProps {
  node: MenuNode;
  activePath: string;
  openGroups: Set<string>;
  depth: number;
}

function onLinkClick(e: MouseEvent<HTMLAnchorElement>, node: MenuNode): void {
  // keep ctrl/middle click as the browser's "open in a new tab"
  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  openRoute(node.entry.key, node.entry.flags ?? []);
}

/** The entry's title, with the "not built yet" mark on screens whose page does not exist yet. */
function Label({ node }: { node: MenuNode }) {
  const t = useT();
  const title = menuTitle(node.entry.key);
  if (!node.notBuilt) return title;
  return (
    <Group gap={6} wrap="nowrap" title={t('notBuilt.markTitle')}>
      <span>{title}</span>
      <Badge size="xs" variant="light" color="gray" data-testid={`not-built-mark-${node.entry.key}`} style={{ flexShrink: 0 }}>
        {t('notBuilt.mark')}
      </Badge>
    </Group>
  );
}

function MenuItem({ node, activePath, openGroups, depth }: ItemProps) {
  useLang(); // re-render titles on language change
  const key = node.entry.key;
  if (node.children.length) {
    return (
      <NavLink
        label={<Label node={node} />}
        data-testid={`nav-group-${key}`}
        data-built={node.notBuilt ? 'false' : undefined}
        defaultOpened={openGroups.has(key)}
        childrenOffset={depth === 0 ? 'sm' : 'md'}
        component="button"
      >
        {node.children.map((c) => (
          <MenuItem key={c.entry.key} node={c} activePath={activePath} openGroups={openGroups} depth={depth + 1} />
        ))}
      </NavLink>
    );
  }
  const flags = node.entry.flags ?? [];
  return (
    <NavLink
      label={<Label node={node} />}
      href={hrefOf(key, flags)}
      target={flags.includes('standalone') || flags.includes('external') ? '_blank' : undefined}
      active={activePath === key}
      data-testid={`nav-${key}`}
      data-flags={flags.join(' ') || undefined}
      data-built={node.notBuilt ? 'false' : undefined}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => onLinkClick(e, node)}
    />
  );
}

/** The side navigation: registry groups in menu order, only the routes the user may see. */
export const SideNav = memo(function SideNav({ activePath }: { activePath: string }) {
  const access = useAccess();
  const menu = useMemo(() => buildMenu((p) => access.canSeeRoute(p)), [access]);
  // groups around the active page start open; computed once per menu so a user's folding sticks
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const openGroups = useMemo(() => groupsOf(activePath), [menu]);
  return (
    <nav data-testid="side-nav">
      {menu.map((n) => (
        <MenuItem key={n.entry.key} node={n} activePath={activePath} openGroups={openGroups} depth={0} />
      ))}
    </nav>
  );
});
