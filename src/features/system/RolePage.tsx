import { useState } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { usePerm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { roleApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import { RoleFormModal } from './RoleFormModal.tsx';
import { RolePermissionsDrawer } from './RolePermissionsDrawer.tsx';
import type { Role } from './types.ts';
import { formatTime } from './ui/format.ts';

const ROUTE = '/system/role';

type Dialog = { kind: 'create' } | { kind: 'edit'; role: Role } | { kind: 'perms'; role: Role } | undefined;

/** /system/role: roles with create, edit, delete and the permission grant drawer. */
export function RolePage() {
  const t = useT(SYSTEM_NS);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const canUpdate = usePerm(ROUTE, 'update');
  const invalidate = useInvalidate(ROUTE);
  const saved = () => {
    setDialog(undefined);
    void invalidate();
  };

  const columns: KitColumn<Role>[] = [
    { key: 'name', title: t('role.name'), minWidth: 120, maxWidth: 240, render: (r) => <Text size="sm" fw={500}>{r.name}</Text> },
    { key: 'remark', title: t('role.remark'), minWidth: 140, maxWidth: 360, render: (r) => r.remark },
    {
      key: 'perms',
      title: t('role.permissions'),
      minWidth: 110,
      maxWidth: 140,
      render: (r) => (
        <Badge variant="light" color="gray">
          {t('role.permissionCount', { count: r.permissionIds.length })}
        </Badge>
      ),
    },
    { key: 'created', title: t('common.createTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.createTime) },
    { key: 'updated', title: t('common.updateTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.updateTime) },
  ];

  return (
    <ListPage<Role>
      route={ROUTE}
      pageId="system-role"
      title={t('role.title')}
      searchPlaceholder={t('role.keywordPlaceholder')}
      fetchPage={(q) => roleApi.page({ ...q, keyword: q.keyword || undefined })}
      exportJob={(q) => roleApi.exportJob({ keyword: q.keyword || undefined })}
      columns={columns}
      actionsWidth={200}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(role) => setDialog({ kind: 'edit', role })}
      remove={{ name: (r) => r.name, call: (r) => roleApi.remove([r.id]) }}
      rowActions={(r) => (
        <Button size="compact-xs" variant="light" color="grape" onClick={() => setDialog({ kind: 'perms', role: r })} data-action="permissions">
          {t('role.permissions')}
        </Button>
      )}
    >
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <RoleFormModal role={dialog.kind === 'edit' ? dialog.role : undefined} onClose={() => setDialog(undefined)} onSaved={saved} />
      )}
      {dialog?.kind === 'perms' && <RolePermissionsDrawer role={dialog.role} canSave={canUpdate} onClose={() => setDialog(undefined)} onSaved={saved} />}
    </ListPage>
  );
}
