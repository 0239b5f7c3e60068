/**
 * The state a held-resource screen (fences, route plans) keeps around its list: the server-paged list of
 * the tree's company, the selected row and its detail, the map's fit key, the send task, the error and
 * busy flag of the card's actions, and 下发 itself.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../kit/errors.ts';
import { useResourceList } from '../../kit/useResourceList.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import type { HeldTask } from './api.ts';

export const HELD_PAGE_SIZE = 20;

export function useHeldPage<View extends { id: number }, Detail>(route: string, api: {
  page: (q: { current: number; size: number; name?: string }) => Promise<{ records: View[]; total: number }>;
  get: (id: number) => Promise<Detail>;
  send: (id: number) => Promise<HeldTask>;
}, opts: { detailRefetchMs?: number } = {}) {
  const { companyId } = useCompanySelection();
  const [keyword, setKeyword] = useState('');
  const list = useResourceList<View>(route, (q) => api.page({ current: q.current, size: HELD_PAGE_SIZE, name: q.keyword || undefined }), { companyId });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [fitKey, setFitKey] = useState(0);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const selected = list.records.find((r) => r.id === selectedId) ?? null;
  const detail = useQuery({ queryKey: [route, 'detail', selectedId], queryFn: () => api.get(selectedId!), enabled: selectedId !== null, refetchInterval: opts.detailRefetchMs });

  /** A row or a map pick: the card shows it, its task is forgotten and the map fits it. */
  const select = (id: number) => {
    setSelectedId(id);
    setTaskId(null);
    setError(null);
    setFitKey((k) => k + 1);
  };
  // Invalidates every query of the route: the list, the detail and the task.
  const refresh = () => void list.invalidate();
  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const send = () => run(async () => {
    if (selectedId === null) return;
    setTaskId((await api.send(selectedId)).id);
  });
  /** After a delete: nothing selected, no task. */
  const deselect = () => {
    setSelectedId(null);
    setTaskId(null);
    refresh();
  };

  return { keyword, setKeyword, list, selectedId, setSelectedId, fitKey, setFitKey, taskId, error, setError, busy, selected, detail, select, refresh, run, send, deselect };
}
