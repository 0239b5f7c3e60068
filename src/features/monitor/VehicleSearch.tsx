/**
 * Search by plate on the 车辆 tab: the company tree's server search (treeSearch, the caller's own
 * vehicles), vehicles only; picking a hit chooses the vehicle (card, map flies to it).
 */
import { useEffect, useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { parseNodeId } from '../../../domain/company/tree-node.ts';
import { useT } from '../../i18n/index.ts';
import { searchTree } from '../company-tree/api.ts';
import { MONITOR_NS } from './messages.ts';

const DEBOUNCE_MS = 250;

export function VehicleSearch({ onPick }: { onPick: (vehicleId: number) => void }) {
  const t = useT(MONITOR_NS);
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), DEBOUNCE_MS);
  const [hits, setHits] = useState<{ keyword: string; list: { value: string; label: string }[] } | null>(null);
  const [value, setValue] = useState<string | null>(null);

  useEffect(() => {
    if (!debounced) return;
    let stale = false;
    searchTree(debounced, 20)
      .then((found) => {
        const list = found
          .filter((h) => h.node.nodeType === 'V')
          .map((h) => ({ value: String(parseNodeId(h.node.id)?.id ?? ''), label: h.node.name }))
          .filter((o) => o.value !== '');
        if (!stale) setHits({ keyword: debounced, list });
      })
      .catch(() => {
        if (!stale) setHits({ keyword: debounced, list: [] });
      });
    return () => {
      stale = true;
    };
  }, [debounced]);

  const current = hits && hits.keyword === debounced ? hits.list : [];
  // The chosen plate stays among the options so the box keeps showing it.
  const chosen = value && hits ? hits.list.find((o) => o.value === value) : undefined;
  const data = chosen && !current.some((o) => o.value === chosen.value) ? [chosen, ...current] : current;

  return (
    <Select
      size="xs"
      searchable
      clearable
      placeholder={t('searchPlaceholder')}
      aria-label={t('searchPlaceholder')}
      data={data}
      value={value}
      searchValue={query}
      onSearchChange={setQuery}
      // The server already matched the keyword (anywhere in the plate).
      filter={({ options }) => options}
      nothingFoundMessage={debounced ? (hits?.keyword === debounced ? t('noHits') : t('searching')) : undefined}
      onChange={(v) => {
        setValue(v);
        if (v) onPick(Number(v));
      }}
      data-testid="vehicle-search"
    />
  );
}
