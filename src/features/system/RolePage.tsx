import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Perm, usePerm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { roleApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import { RoleFormModal } from './RoleFormModal.tsx';
import { RolePermissionsDrawer } from './RolePermissionsDrawer.tsx';
import type { Role } from './types.ts';
import { formatTime } from './ui/format.ts';
import { ListTable, type Column } from './ui/ListTable.tsx';
import { SearchBar } from './ui/SearchBar.tsx';
import { usePagedList } from './ui/usePagedList.ts';
import { DeleteRowButton } from './ui/DeleteRowButton.tsx';

const ROUTE = '/system/role';

type Dialog = { kind: 'create' } | { kind: 'edit'; role: Role } | { kind: 'perms'; role: Role } | undefined;

/** /system/role: roles with create, edit, delete and the permission grant drawer. */
export function RolePage() {
  const t = useT(SYSTEM_NS);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const canUpdate = usePerm(ROUTE, 'update');
  const list = usePagedList((q) => roleApi.page({ ...q, keyword: q.keyword || undefined }), []);

  const columns: Column<Role>[] = [
    { key: 'name', title: t('role.name'), render: (r) => <Text size="sm" fw={500}>{r.name}</Text> },
    { key: 'remark', title: t('role.remark'), render: (r) => r.remark },
    {
      key: 'perms',
      title: t('role.permissions'),
      render: (r) => (
        <Badge variant="light" color="gray">
          {t('role.permissionCount', { count: r.permissionIds.length })}
        </Badge>
      ),
    },
    { key: 'created', title: t('common.createTime'), render: (r) => formatTime(r.createTime) },
    { key: 'updated', title: t('common.updateTime'), render: (r) => formatTime(r.updateTime) },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" color="grape" onClick={() => setDialog({ kind: 'perms', role: r })} data-action="permissions">
            {t('role.permissions')}
          </Button>
          <Perm route={ROUTE} button="update">
            <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'edit', role: r })}>
              {t('common.edit')}
            </Button>
          </Perm>
          <DeleteRowButton
            route={ROUTE}
            message={t('common.deleteConfirm', { name: r.name })}
            label={t('common.delete')}
            deletedMessage={t('common.deleted')}
            onDelete={() => roleApi.remove([r.id])}
            onDeleted={() => list.reload()}
          />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm" h="100%" p="md" data-page="system-role">
      <Title order={4}>{t('role.title')}</Title>
      <SearchBar placeholder={t('role.keywordPlaceholder')} onSearch={list.search} route={ROUTE}>
        <Perm route={ROUTE} button="create">
          <Button size="sm" onClick={() => setDialog({ kind: 'create' })}>
            {t('common.create')}
          </Button>
        </Perm>
      </SearchBar>
      <ListTable list={list} columns={columns} label={t('role.title')} />
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <RoleFormModal
          role={dialog.kind === 'edit' ? dialog.role : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            list.reload();
          }}
        />
      )}
      {dialog?.kind === 'perms' && (
        <RolePermissionsDrawer
          role={dialog.role}
          canSave={canUpdate}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            list.reload();
          }}
        />
      )}
    </Stack>
  );
}
