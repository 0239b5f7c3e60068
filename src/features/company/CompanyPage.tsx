import { useCallback, useEffect, useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { companyOptionsApi } from '../system/api.ts';
import type { CompanyOption } from '../system/types.ts';
import { formatTime } from '../system/ui/format.ts';
import { ListTable, type Column } from '../system/ui/ListTable.tsx';
import { SearchBar } from '../system/ui/SearchBar.tsx';
import { usePagedList } from '../system/ui/usePagedList.ts';
import { companyApi, type Company } from './api.ts';
import { CompanyFormModal } from './CompanyFormModal.tsx';
import { COMPANY_NS } from './messages.ts';
import { DeleteRowButton } from '../system/ui/DeleteRowButton.tsx';

const ROUTE = '/information/company';

type Dialog = { kind: 'create' } | { kind: 'edit'; company: Company } | undefined;

/** /information/company: the child companies of the company picked in the tree, with create, edit and delete. */
export function CompanyPage() {
  const t = useT(COMPANY_NS);
  const { companyId, rootCompanyId } = useCompanySelection();
  const [companies, setCompanies] = useState<CompanyOption[]>([]);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [treeToken, setTreeToken] = useState(0);
  // Children of the selected company; with none selected, of the user's root company.
  const parentId = companyId ?? rootCompanyId ?? undefined;

  const loadCompanies = useCallback(() => {
    companyOptionsApi.tree().then(setCompanies, () => setCompanies([]));
  }, []);
  useEffect(loadCompanies, [loadCompanies]);

  const list = usePagedList((q) => companyApi.page({ ...q, keyword: q.keyword || undefined, pid: parentId }), [parentId]);
  const changed = () => {
    list.reload();
    loadCompanies();
    setTreeToken((n) => n + 1);
  };
  const parentName = companies.find((c) => c.id === parentId)?.name;

  const columns: Column<Company>[] = [
    { key: 'name', title: t('name'), render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'contact', title: t('contact'), render: (c) => c.contact },
    { key: 'phone', title: t('phone'), render: (c) => c.phone },
    { key: 'address', title: t('address'), render: (c) => c.address },
    { key: 'children', title: t('childCount'), render: (c) => c.childCount },
    { key: 'vehicles', title: t('vehicleCount'), render: (c) => c.vehicleCount },
    { key: 'created', title: t('createTime'), render: (c) => formatTime(c.createTime) },
    {
      key: 'actions',
      title: t('actions'),
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          <Perm route={ROUTE} button="update">
            <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'edit', company: c })}>
              {t('edit')}
            </Button>
          </Perm>
          <DeleteRowButton
            route={ROUTE}
            message={t('deleteConfirm', { name: c.name })}
            label={t('delete')}
            deletedMessage={t('deleted')}
            onDelete={() => companyApi.remove([c.id])}
            onDeleted={() => changed()}
          />
        </Group>
      ),
    },
  ];

  return (
    <Group align="stretch" wrap="nowrap" gap="md" h="100%" p="md" style={{ minHeight: 480 }} data-page="information-company">
      <Paper withBorder p="xs" w={280} style={{ flex: 'none', display: 'flex', flexDirection: 'column' }}>
        <CompanyTreePanel refreshToken={treeToken} />
      </Paper>
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between">
          <Title order={4}>{t('title')}</Title>
          <Text size="sm" c="dimmed">
            {parentId === undefined ? t('allCompanies') : t('childrenOf', { name: parentName ?? `#${parentId}` })}
          </Text>
        </Group>
        <SearchBar placeholder={t('keywordPlaceholder')} onSearch={list.search} route={ROUTE}>
          <Perm route={ROUTE} button="create">
            <Button size="sm" onClick={() => setDialog({ kind: 'create' })}>
              {t('create')}
            </Button>
          </Perm>
        </SearchBar>
        <ListTable list={list} columns={columns} label={t('title')} />
      </Stack>
      {dialog && (
        <CompanyFormModal
          company={dialog.kind === 'edit' ? dialog.company : undefined}
          defaultPid={parentId ?? null}
          companies={companies}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            changed();
          }}
        />
      )}
    </Group>
  );
}
