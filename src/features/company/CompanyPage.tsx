import { useCallback, useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { companyOptionsApi } from '../system/api.ts';
import type { CompanyOption } from '../system/types.ts';
import { formatTime } from '../system/ui/format.ts';
import { companyApi, type Company } from './api.ts';
import { CompanyFormModal } from './CompanyFormModal.tsx';
import { COMPANY_NS } from './messages.ts';

const ROUTE = '/information/company';

type Dialog = { kind: 'create' } | { kind: 'edit'; company: Company } | undefined;

/** /information/company: the child companies of the company picked in the tree, with create, edit and delete. */
export function CompanyPage() {
  const t = useT(COMPANY_NS);
  const { companyId, rootCompanyId } = useCompanySelection();
  const [companies, setCompanies] = useState<CompanyOption[]>([]);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [treeToken, setTreeToken] = useState(0);
  const invalidate = useInvalidate(ROUTE);
  // Children of the selected company; with none selected, of the user's root company.
  const parentId = companyId ?? rootCompanyId ?? undefined;

  const loadCompanies = useCallback(() => {
    companyOptionsApi.tree().then(setCompanies, () => setCompanies([]));
  }, []);
  useEffect(loadCompanies, [loadCompanies]);

  // A company change also changes the tree and the pickers' options.
  const treeChanged = () => {
    loadCompanies();
    setTreeToken((n) => n + 1);
  };
  const parentName = companies.find((c) => c.id === parentId)?.name;

  const columns: KitColumn<Company>[] = [
    { key: 'name', title: t('name'), minWidth: 140, maxWidth: 280, render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'contact', title: t('contact'), minWidth: 90, maxWidth: 160, render: (c) => c.contact },
    { key: 'phone', title: t('phone'), minWidth: 110, maxWidth: 160, render: (c) => c.phone },
    { key: 'address', title: t('address'), minWidth: 140, maxWidth: 360, render: (c) => c.address },
    { key: 'children', title: t('childCount'), minWidth: 80, maxWidth: 110, render: (c) => c.childCount },
    { key: 'vehicles', title: t('vehicleCount'), minWidth: 80, maxWidth: 110, render: (c) => c.vehicleCount },
    { key: 'created', title: t('createTime'), minWidth: 130, maxWidth: 170, render: (c) => formatTime(c.createTime) },
  ];

  return (
    <ListPage<Company>
      route={ROUTE}
      pageId="information-company"
      title={t('title')}
      tree={{ refreshToken: treeToken }}
      header={
        <Text size="sm" c="dimmed">
          {parentId === undefined ? t('allCompanies') : t('childrenOf', { name: parentName ?? `#${parentId}` })}
        </Text>
      }
      searchPlaceholder={t('keywordPlaceholder')}
      fetchPage={(q) => companyApi.page({ ...q, keyword: q.keyword || undefined, pid: parentId })}
      scope={{ parentId }}
      exportJob={(q) => companyApi.exportJob({ keyword: q.keyword || undefined, pid: parentId })}
      columns={columns}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(company) => setDialog({ kind: 'edit', company })}
      remove={{ name: (c) => c.name, message: (c) => t('deleteConfirm', { name: c.name }), call: (c) => companyApi.remove([c.id]), done: treeChanged }}
    >
      {dialog && (
        <CompanyFormModal
          company={dialog.kind === 'edit' ? dialog.company : undefined}
          defaultPid={parentId ?? null}
          companies={companies}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void invalidate();
            treeChanged();
          }}
        />
      )}
    </ListPage>
  );
}
