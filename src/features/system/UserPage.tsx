import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { companySelection, useCompanySelection } from '../../session/company-selection.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { companyOptionsApi, roleApi, userApi } from './api.ts';
import { LoginTicketModal } from './LoginTicketModal.tsx';
import { SYSTEM_NS } from './messages.ts';
import type { CompanyOption, Role, User } from './types.ts';
import { ConfirmDialog } from './ui/ConfirmButton.tsx';
import { formatTime } from './ui/format.ts';
import { ListTable, type Column } from './ui/ListTable.tsx';
import { SearchBar } from './ui/SearchBar.tsx';
import { usePagedList } from './ui/usePagedList.ts';
import { UserFormModal } from './UserFormModal.tsx';
import { DeleteRowButton } from './ui/DeleteRowButton.tsx';

const ROUTE = '/system/user';

type Dialog = { kind: 'create' } | { kind: 'edit'; user: User } | { kind: 'ticket'; user: User } | { kind: 'revoke'; user: User } | undefined;

/** /system/user: users of the selected company's subtree, with create, edit, delete, session revocation and login links. */
export function UserPage() {
  const t = useT(SYSTEM_NS);
  const { companyId } = useCompanySelection();
  const [companies, setCompanies] = useState<CompanyOption[]>([]);
  const [roles, setRoles] = useState<Role[]>([]);
  const [dialog, setDialog] = useState<Dialog>(undefined);

  useEffect(() => {
    companyOptionsApi.tree().then(setCompanies, () => setCompanies([]));
    roleApi.list().then(setRoles, () => setRoles([]));
  }, []);

  const list = usePagedList((q) => userApi.page({ ...q, keyword: q.keyword || undefined, companyId }), [companyId]);
  const roleName = useMemo(() => new Map(roles.map((r) => [r.id, r.name])), [roles]);
  const companyName = companies.find((c) => c.id === companyId)?.name;

  const columns: Column<User>[] = [
    { key: 'username', title: t('user.username'), render: (u) => u.username },
    { key: 'realName', title: t('user.realName'), render: (u) => u.realName },
    { key: 'company', title: t('user.company'), render: (u) => u.companyName },
    { key: 'level', title: t('user.userLevel'), render: (u) => t(`user.levels.${u.userLevel}`) },
    {
      key: 'roles',
      title: t('user.roles'),
      render: (u) => (
        <Text size="sm" lineClamp={2}>
          {u.roleIds.map((id) => roleName.get(id) ?? `#${id}`).join(', ')}
        </Text>
      ),
    },
    { key: 'phone', title: t('user.phone'), render: (u) => u.phone },
    {
      key: 'status',
      title: t('user.status'),
      render: (u) => (
        <Text size="sm" c={u.status === 1 ? 'green' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
          ● {u.status === 1 ? t('user.statusActive') : t('user.statusDisabled')}
        </Text>
      ),
    },
    { key: 'expire', title: t('user.expireTime'), render: (u) => (u.expireTime === null ? t('user.expireNever') : formatTime(u.expireTime)) },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (u) => (
        <Group gap={4} wrap="nowrap">
          <Perm route={ROUTE} button="update">
            <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'edit', user: u })}>
              {t('common.edit')}
            </Button>
          </Perm>
          <Perm route={ROUTE} button="update">
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button size="compact-xs" variant="light" color="gray" data-perm={`${ROUTE}:update`} data-action="more">
                  {t('common.more')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setDialog({ kind: 'ticket', user: u })} data-action="ticket">
                  {t('user.ticket')}
                </Menu.Item>
                <Menu.Item color="orange" onClick={() => setDialog({ kind: 'revoke', user: u })} data-action="revoke">
                  {t('user.revoke')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Perm>
          <DeleteRowButton
            route={ROUTE}
            message={t('common.deleteConfirm', { name: u.username })}
            label={t('common.delete')}
            deletedMessage={t('common.deleted')}
            onDelete={() => userApi.remove([u.id])}
            onDeleted={() => list.reload()}
          />
        </Group>
      ),
    },
  ];

  return (
    <Group align="stretch" wrap="nowrap" gap="md" h="100%" p="md" style={{ minHeight: 480 }} data-page="system-user">
      <Paper withBorder p="xs" w={280} style={{ flex: 'none', display: 'flex', flexDirection: 'column' }}>
        <CompanyTreePanel />
      </Paper>
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between">
          <Title order={4}>{t('user.title')}</Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {companyId === null ? t('common.allCompanies') : t('common.selectedCompany', { name: companyName ?? `#${companyId}` })}
            </Text>
            {companyId !== null && (
              <Button size="compact-xs" variant="subtle" onClick={() => (companySelection.companyId = null)}>
                {t('common.clearCompany')}
              </Button>
            )}
          </Group>
        </Group>
        <SearchBar placeholder={t('user.keywordPlaceholder')} onSearch={list.search} route={ROUTE}>
          <Perm route={ROUTE} button="create">
            <Button size="sm" onClick={() => setDialog({ kind: 'create' })}>
              {t('common.create')}
            </Button>
          </Perm>
        </SearchBar>
        <ListTable list={list} columns={columns} label={t('user.title')} />
      </Stack>
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <UserFormModal
          user={dialog.kind === 'edit' ? dialog.user : undefined}
          defaultCompanyId={companyId ?? companies[0]?.id ?? null}
          companies={companies}
          roles={roles}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            list.reload();
          }}
        />
      )}
      {dialog?.kind === 'ticket' && <LoginTicketModal user={dialog.user} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'revoke' && (
        <ConfirmDialog
          opened
          color="orange"
          onClose={() => setDialog(undefined)}
          message={t('user.revokeConfirm', { name: dialog.user.username })}
          onConfirm={async () => {
            const r = await userApi.revokeSessions(dialog.user.id);
            notifications.show({ color: 'green', message: t('user.revoked', { count: r.revoked }), autoClose: 2000 });
          }}
        />
      )}
    </Group>
  );
}
