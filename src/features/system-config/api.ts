/**
 * Calls of /system/dictionary and /system/param (server/services/system-config/api.md) and the hooks
 * other pages use to READ the configuration live: `useSystemParams()` (values in force for the selected
 * company) and `useDictionary(kind)`. Both refetch when the push channel says the part changed
 * (`configChanged`, src/live/stream) or after a reconnect, so an open page follows a change without a reload.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParamKind, ParamOption, ParamScope } from '../../../domain/system-config/params.ts';
import { http } from '../../api/http.ts';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { useCompanySelection } from '../../session/company-selection.ts';

export interface ParamNode {
  id: number;
  parentId: number | null;
  paramKey: string;
  paramName: string;
  paramNameEn: string;
  kind: ParamKind;
  scope: ParamScope;
  min: number | null;
  max: number | null;
  unit: string;
  unitEn: string;
  options: ParamOption[];
  defaultValue: string | null;
  value: string | null;
  effective: string | null;
  builtin: boolean;
  remark: string;
  updatedBy: string;
  updateTime: number;
  editable: boolean;
  children?: ParamNode[];
}

export interface ParamTree {
  version: number;
  companyId: number;
  platformAdmin: boolean;
  tree: ParamNode[];
}

export interface DictEntry {
  id: number;
  parentId: number | null;
  kind: string;
  code: string;
  codeCnname: string;
  codeEnname: string;
  sort: number;
  enabled: boolean;
  builtin: boolean;
  remark: string;
  updateTime: number;
  children?: DictEntry[];
}

const P = '/service-priv/paramconfig/system';
const D = '/service-priv/dictionary';

export const paramApi = {
  tree: () => http.get<ParamTree>(`${P}/findAll`),
  values: () => http.get<{ version: number; companyId: number; values: Record<string, string> }>(`${P}/values`),
  update: (body: { id: number; value: string | null }) => http.post<ParamNode>(`${P}/update`, body, { silent: true }),
  save: (body: Record<string, unknown>) => http.post<ParamNode>(`${P}/save`, body, { silent: true }),
  remove: (ids: number[]) => http.get<{ deleted: number }>(`${P}/remove`, { ids }, { noCompanyId: true }),
};

export const dictApi = {
  tree: (kind?: string) => http.get<{ version: number; tree: DictEntry[] }>(`${D}/getTreeDictionaries`, { kind }, { noCompanyId: true }),
  save: (body: Record<string, unknown>) => http.post<DictEntry>(`${D}/save`, body, { silent: true, noCompanyId: true }),
  update: (body: Record<string, unknown>) => http.post<DictEntry>(`${D}/update`, body, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.post<{ deleted: number }>(`${D}/delete`, { ids }, { noCompanyId: true }),
};

/** Query keys: `['system-config', topic, …]`, so a push notice invalidates one topic. */
export const CONFIG_KEY = 'system-config';

/** Refetches the configuration queries of a topic when the server says it changed (and everything after a reconnect). */
export function useConfigRefresh(): void {
  const client = useQueryClient();
  useEffect(() => {
    const stream = acquireLiveStream();
    const off = stream.onConfigChanged?.((change) => {
      void client.invalidateQueries({ queryKey: change ? [CONFIG_KEY, change.topic] : [CONFIG_KEY] });
    });
    return () => {
      off?.();
      stream.dispose();
    };
  }, [client]);
}

/** Every parameter value in force for the selected company (platform ones included), kept fresh by push. */
export function useSystemParams(): Record<string, string> | undefined {
  useConfigRefresh();
  const { companyId } = useCompanySelection();
  const q = useQuery({ queryKey: [CONFIG_KEY, 'params', 'values', companyId], queryFn: paramApi.values, staleTime: 60_000 });
  return q.data?.values;
}

/** The enabled codes of one dictionary kind, in order, kept fresh by push. */
export function useDictionary(kind: string): DictEntry[] | undefined {
  useConfigRefresh();
  const q = useQuery({ queryKey: [CONFIG_KEY, 'dictionary', kind], queryFn: () => dictApi.tree(kind), staleTime: 5 * 60_000 });
  return q.data?.tree[0]?.children?.filter((c) => c.enabled);
}
