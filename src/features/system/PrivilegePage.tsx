import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Loader, Paper, ScrollArea, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ADMIN_LEVEL } from '../../../domain/permissions/access.ts';
import { Perm, usePerm } from '../../app/Perm.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable, rowsTableHeight } from '../../kit/RowsTable.tsx';
import { useSession } from '../../session/store.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { privApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import { PermissionTree, slotBitLabel } from './permission-tree.ts';
import { PermTreeView, permName } from './PermTreeView.tsx';
import { recordsOfPrivTree } from './priv-tree.ts';
import type { PermissionRecord, PrivDetail } from './types.ts';
import { errorMessage } from './ui/format.ts';

const ROUTE = '/system/privilege';

/**
 * /system/privilege: the permission tree rooted at 'all permissions', a node's detail and its grant per
 * role. The detail and the roles are kit tables (`RowsTable`: column limits, the grant switch pinned right).
 */
export function PrivilegePage() {
  const t = useT(SYSTEM_NS);
  const [tree, setTree] = useState<PermissionTree<PermissionRecord> | undefined>(undefined);
  const [treeError, setTreeError] = useState<string | undefined>(undefined);
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [keyword, setKeyword] = useState('');
  const [attempt, setAttempt] = useState(0);

  const reloadTree = useCallback(() => setAttempt((n) => n + 1), []);
  useEffect(() => {
    let stale = false;
    privApi.tree().then(
      (root) => {
        if (stale) return;
        setTree(new PermissionTree(recordsOfPrivTree(root)));
        setTreeError(undefined);
      },
      (e: unknown) => !stale && setTreeError(errorMessage(e)),
    );
    return () => {
      stale = true;
    };
  }, [attempt]);

  const visible = useMemo(() => tree?.matching(keyword), [tree, keyword]);

  return (
    <Group align="stretch" wrap="nowrap" gap="md" h="100%" p="md" style={{ minHeight: 480 }} data-page="system-privilege">
      <Paper withBorder p="xs" w={460} style={{ flex: 'none', display: 'flex', flexDirection: 'column' }}>
        <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
          <Title order={4}>{t('priv.title')}</Title>
          <TextInput size="xs" placeholder={t('priv.searchPlaceholder')} aria-label={t('priv.searchPlaceholder')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} />
          {treeError && (
            <Alert color="red" role="alert">
              {treeError}{' '}
              <Button size="compact-xs" variant="subtle" onClick={reloadTree}>
                {t('common.retry')}
              </Button>
            </Alert>
          )}
          {!tree && !treeError && <Loader size="sm" aria-label={t('common.loading')} />}
          {tree && (
            <ScrollArea style={{ flex: 1 }} type="auto">
              <PermTreeView tree={tree} visible={visible} expanded={expanded} onExpandedChange={setExpanded} mode={{ kind: 'select', selectedId, onSelect: setSelectedId }} showIds />
            </ScrollArea>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" style={{ flex: 1, minWidth: 0, overflow: 'auto' }}>
        {selectedId === undefined || selectedId === 0 || !tree ? (
          <Text c="dimmed" size="sm">
            {t('priv.pickNode')}
          </Text>
        ) : (
          <PrivDetailPanel key={selectedId} id={selectedId} tree={tree} onTreeChanged={reloadTree} />
        )}
      </Paper>
    </Group>
  );
}

function PrivDetailPanel({ id, tree, onTreeChanged }: { id: number; tree: PermissionTree<PermissionRecord>; onTreeChanged: () => void }) {
  const t = useT(SYSTEM_NS);
  const lang = useLang();
  const canUpdate = usePerm(ROUTE, 'update');
  // The catalogue (names and order of permission nodes) is global: the server lets only a super
  // administrator change it, whatever bits a role grants, so nobody else is offered the controls.
  const catalogueOwner = useSession().user?.userLevel === ADMIN_LEVEL;
  const [detail, setDetail] = useState<PrivDetail | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [name, setName] = useState('');
  const [nameEn, setNameEn] = useState('');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);

  useEffect(() => {
    let stale = false;
    privApi.detail(id).then(
      (d) => {
        if (stale) return;
        setDetail(d);
        setName(d.record.name);
        setNameEn(d.record.nameEn);
      },
      (e: unknown) => !stale && setError(errorMessage(e)),
    );
    return () => {
      stale = true;
    };
  }, [id]);

  if (error)
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  if (!detail) return <Loader size="sm" aria-label={t('common.loading')} />;
  const r = detail.record;

  const rename = async () => {
    if (!name.trim()) {
      setNameError(t('validation.required'));
      return;
    }
    setBusy('rename');
    try {
      // The server requires a non-blank English name when one is sent, so a blank one is left out.
      const saved = await privApi.rename({ id: r.id, name: name.trim(), ...(nameEn.trim() ? { nameEn: nameEn.trim() } : {}) });
      setDetail({ ...detail, record: saved });
      notifications.show({ color: 'green', message: t('priv.renamed'), autoClose: 2000 });
      onTreeChanged();
    } catch (e) {
      setNameError(errorMessage(e));
    } finally {
      setBusy(undefined);
    }
  };

  const move = async (direction: 'up' | 'down') => {
    setBusy(direction);
    try {
      await privApi.move(r.id, direction);
      onTreeChanged();
    } catch {
      // toasted by the client
    } finally {
      setBusy(undefined);
    }
  };

  // Same rule as the role drawer: a grant brings the ancestors along, a revocation the subtree.
  const setGrant = async (role: { id: number; name: string }, on: boolean) => {
    setBusy(`role-${role.id}`);
    try {
      const result = on ? await privApi.grant(role.id, [r.id, ...tree.ancestorIds(r.id)]) : await privApi.revoke(role.id, tree.subtreeIds(r.id));
      const granted = result.permissionIds.includes(r.id);
      setDetail({ ...detail, roles: detail.roles.map((x) => (x.id === role.id ? { ...x, granted } : x)) });
      notifications.show({ color: 'green', message: on ? t('priv.grantedOn', { role: role.name }) : t('priv.revokedOn', { role: role.name }), autoClose: 2000 });
    } catch {
      // toasted by the client
    } finally {
      setBusy(undefined);
    }
  };

  const detailColumns: KitColumn<[string, string]>[] = [
    { key: 'field', title: t('priv.field'), minWidth: 140, maxWidth: 200, render: ([k]) => k },
    {
      key: 'value', title: t('priv.value'), minWidth: 200, maxWidth: 640,
      render: ([, v]) => <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>{v}</Text>,
    },
  ];
  const roleColumns: KitColumn<PrivDetail['roles'][number]>[] = [
    { key: 'role', title: t('priv.role'), minWidth: 160, maxWidth: 360, render: (role) => role.name },
    {
      key: 'state', title: t('priv.state'), minWidth: 90, maxWidth: 140,
      render: (role) => <Text size="sm" c={role.granted ? 'green' : 'dimmed'}>{role.granted ? t('priv.granted') : t('priv.notGranted')}</Text>,
    },
  ];

  const rows: [string, string][] = [
    [t('priv.id'), String(r.id)],
    [t('priv.type'), t(`priv.types.${r.type}`)],
    [t('priv.routeKey'), r.routeKey],
    [t('priv.slot'), String(r.offset)],
    [t('priv.bit'), `${r.permissions} (${slotBitLabel(r.id)})`],
    [t('priv.nameZh'), r.name],
    [t('priv.nameEn'), r.nameEn],
  ];

  return (
    <Stack gap="md" data-testid="priv-detail">
      <Group justify="space-between">
        <Title order={5}>
          {t('priv.detail')} · {permName(r, lang)}
        </Title>
        {catalogueOwner && (<Group gap="xs">
          <Perm route={ROUTE} button="update">
            <Button size="xs" variant="default" loading={busy === 'up'} onClick={() => void move('up')} data-action="move-up">
              {t('priv.moveUp')}
            </Button>
          </Perm>
          <Perm route={ROUTE} button="update">
            <Button size="xs" variant="default" loading={busy === 'down'} onClick={() => void move('down')} data-action="move-down">
              {t('priv.moveDown')}
            </Button>
          </Perm>
        </Group>)}
      </Group>
      <RowsTable<[string, string]>
        rows={rows}
        rowKey={([k]) => k}
        columns={detailColumns}
        label={t('priv.detail')}
        height={rowsTableHeight(rows.length)}
        testId="priv-record"
      />
      {!catalogueOwner && canUpdate && (
        <Text size="sm" c="dimmed" data-testid="priv-catalogue-owner">
          {t('priv.superAdminOnly')}
        </Text>
      )}
      {catalogueOwner && (<Perm route={ROUTE} button="update">
        <Group
          align="flex-start"
          gap="xs"
          component="form"
          data-perm={`${ROUTE}:update`}
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <TextInput
            size="xs"
            label={t('priv.nameZh')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(undefined);
            }}
            error={nameError}
            maxLength={32}
          />
          <TextInput size="xs" label={t('priv.nameEn')} value={nameEn} onChange={(e) => setNameEn(e.currentTarget.value)} maxLength={64} />
          <Button size="xs" type="submit" mt={22} loading={busy === 'rename'}>
            {t('priv.rename')}
          </Button>
        </Group>
      </Perm>)}
      <div>
        <Title order={6} mb="xs">
          {t('priv.roles')}
        </Title>
        <RowsTable<PrivDetail['roles'][number]>
          rows={detail.roles}
          rowKey={(role) => role.id}
          columns={roleColumns}
          label={t('priv.roles')}
          emptyText={t('priv.noRoles')}
          height={rowsTableHeight(detail.roles.length, { max: 420 })}
          rowAttributes={(role) => ({ 'data-role-id': role.id })}
          actions={{
            width: 110,
            render: (role) => (
              <Switch
                aria-label={t('priv.grantFor', { role: role.name })}
                checked={role.granted}
                disabled={!canUpdate || busy !== undefined}
                onChange={(e) => void setGrant(role, e.currentTarget.checked)}
                data-grant-role={role.id}
              />
            ),
          }}
          testId="priv-roles"
        />
      </div>
    </Stack>
  );
}
