import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ConfirmDialog } from '../../kit/ConfirmButton.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { companySelection, useCompanySelection } from '../../session/company-selection.ts';
import { companyOptionsApi, roleApi, userApi } from './api.ts';
import { LoginTicketModal } from './LoginTicketModal.tsx';
import { SYSTEM_NS } from './messages.ts';
import type { CompanyOption, Role, User } from './types.ts';
import { formatTime } from './ui/format.ts';
import { UserFormModal } from './UserFormModal.tsx';

const ROUTE = '/system/user';

type Dialog = { kind: 'create' } | { kind: 'edit'; user: User } | { kind: 'ticket'; user: User } | { kind: 'revoke'; user: User } | undefined;

/** /system/user: users of the selected company's subtree, with create, edit, delete, session revocation and login links. */
export function UserPage() {
  const t = useT(SYSTEM_NS);
  const { companyId } = useCompanySelection();
  const [companies, setCompanies] = useState<CompanyOption[]>([]);
  const [roles, setRoles] = useState<Role[]>([]);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const invalidate = useInvalidate(ROUTE);

  useEffect(() => {
    companyOptionsApi.tree().then(setCompanies, () => setCompanies([]));
    roleApi.list().then(setRoles, () => setRoles([]));
  }, []);

  const roleName = useMemo(() => new Map(roles.map((r) => [r.id, r.name])), [roles]);
  const companyName = companies.find((c) => c.id === companyId)?.name;

  const columns: KitColumn<User>[] = [
    { key: 'username', title: t('user.username'), minWidth: 100, maxWidth: 200, render: (u) => u.username },
    { key: 'realName', title: t('user.realName'), minWidth: 90, maxWidth: 180, render: (u) => u.realName },
    { key: 'company', title: t('user.company'), minWidth: 120, maxWidth: 260, render: (u) => u.companyName },
    { key: 'level', title: t('user.userLevel'), minWidth: 100, maxWidth: 160, render: (u) => t(`user.levels.${u.userLevel}`) },
    {
      key: 'roles',
      title: t('user.roles'),
      minWidth: 120,
      maxWidth: 300,
      render: (u) => (
        <Text size="sm" lineClamp={2}>
          {u.roleIds.map((id) => roleName.get(id) ?? `#${id}`).join(', ')}
        </Text>
      ),
    },
    { key: 'phone', title: t('user.phone'), minWidth: 110, maxWidth: 160, render: (u) => u.phone },
    {
      key: 'status',
      title: t('user.status'),
      minWidth: 80,
      maxWidth: 120,
      render: (u) => (
        <Text size="sm" c={u.status === 1 ? 'green' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
          ● {u.status === 1 ? t('user.statusActive') : t('user.statusDisabled')}
        </Text>
      ),
    },
    { key: 'expire', title: t('user.expireTime'), minWidth: 130, maxWidth: 170, render: (u) => (u.expireTime === null ? t('user.expireNever') : formatTime(u.expireTime)) },
  ];

  return (
    <ListPage<User>
      route={ROUTE}
      pageId="system-user"
      title={t('user.title')}
      tree={{}}
      header={
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {companyId === null ? t('common.allCompanies') : t('common.selectedCompany', { name: companyName ?? `#${companyId}` })}
          </Text>
          {companyId !== null && (
            <Button size="compact-xs" variant="subtle" onClick={() => (companySelection.companyId = null)}>
              {t('common.clearCompany')}
            </Button>
          )}
        </Group>
      }
      searchPlaceholder={t('user.keywordPlaceholder')}
      fetchPage={(q) => userApi.page({ ...q, keyword: q.keyword || undefined, companyId })}
      scope={{ companyId }}
      exportJob={(q) => userApi.exportJob({ keyword: q.keyword || undefined, companyId })}
      columns={columns}
      actionsWidth={200}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(user) => setDialog({ kind: 'edit', user })}
      remove={{ name: (u) => u.username, call: (u) => userApi.remove([u.id]) }}
      rowActions={(u) => (
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
      )}
    >
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <UserFormModal
          user={dialog.kind === 'edit' ? dialog.user : undefined}
          defaultCompanyId={companyId ?? companies[0]?.id ?? null}
          companies={companies}
          roles={roles}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void invalidate();
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
    </ListPage>
  );
}
