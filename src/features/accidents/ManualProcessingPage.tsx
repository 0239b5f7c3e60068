/**
 * 人工处理 (/safeManagement/accidentAnalysis/manualProcessing, issue 19): the accidents of the selected
 * companies, filed, edited and deleted behind bits 580–582; each row opens its detail (linked alarms, the
 * vehicle's photos and recordings in the window, track playback around the time).
 */
import { Badge, Button, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ACCIDENT_LEVELS, ACCIDENT_STATES, ACCIDENT_TYPES, label } from '../../../domain/accidents/rules.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { AccidentDetail } from './AccidentDetail.tsx';
import { AccidentForm } from './AccidentForm.tsx';
import { accidentApi, MANUAL_ROUTE, type Accident } from './api.ts';
import { ACCIDENTS_NS } from './messages.ts';

export const LEVEL_COLOR = { minor: 'gray', ordinary: 'yellow', major: 'orange', extraSerious: 'red' } as const;

/** The edit form opens with the accident's linked alarms ticked (read from its detail). */
function EditAccident({ accident, onClose, onSaved }: { accident: Accident; onClose: () => void; onSaved: () => void }) {
  const detail = useQuery({ queryKey: ['accident-detail', accident.id, accident.updateTime], queryFn: () => accidentApi.detail(accident.id) });
  if (!detail.data) return null;
  return <AccidentForm accident={detail.data} linkedAlarmIds={detail.data.alarms.map((a) => a.id)} onClose={onClose} onSaved={onSaved} />;
}

export function ManualProcessingPage() {
  const t = useT(ACCIDENTS_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(MANUAL_ROUTE);
  const [filter, setFilter] = useState<{ type?: string; level?: string; state?: string }>({});
  const [form, setForm] = useState<{ accident?: Accident } | undefined>(undefined);
  const [detail, setDetail] = useState<number | undefined>(undefined);
  const columns: KitColumn<Accident>[] = [
    { key: 'plate', title: t('plate'), minWidth: 100, maxWidth: 140, render: (r) => r.plate },
    { key: 'time', title: t('time'), minWidth: 140, maxWidth: 170, render: (r) => formatTime(r.time) },
    { key: 'type', title: t('type'), minWidth: 80, maxWidth: 110, render: (r) => label('type', r.type, lang) },
    { key: 'level', title: t('level'), minWidth: 90, maxWidth: 120, render: (r) => <Badge color={LEVEL_COLOR[r.level]} variant="light">{label('level', r.level, lang)}</Badge> },
    { key: 'place', title: t('place'), minWidth: 140, maxWidth: 320, render: (r) => r.place },
    { key: 'casualties', title: t('casualties'), minWidth: 90, maxWidth: 140, render: (r) => `${r.deaths} / ${r.seriousInjuries} / ${r.lightInjuries}` },
    { key: 'responsibility', title: t('responsibility'), minWidth: 90, maxWidth: 120, render: (r) => label('responsibility', r.responsibility, lang) },
    { key: 'state', title: t('state'), minWidth: 80, maxWidth: 110, render: (r) => <Badge variant="outline" color={r.state === 'closed' ? 'green' : 'blue'}>{label('state', r.state, lang)}</Badge> },
    { key: 'alarmCount', title: t('alarms'), minWidth: 70, maxWidth: 90, render: (r) => r.alarmCount },
    { key: 'driverName', title: t('driver'), minWidth: 80, maxWidth: 120, render: (r) => r.driverName },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
  ];
  const select = (key: 'type' | 'level' | 'state', values: readonly string[], placeholder: string) => (
    <Select size="xs" w={120} clearable placeholder={placeholder} value={filter[key] ?? null} data-testid={`accident-filter-${key}`}
      data={values.map((v) => ({ value: v, label: label(key, v as never, lang) }))} onChange={(v) => setFilter((f) => ({ ...f, [key]: v ?? undefined }))} />
  );
  return (
    <ListPage<Accident>
      route={MANUAL_ROUTE}
      pageId="accident-manual"
      title={t('manualTitle')}
      tree={{}}
      searchPlaceholder={t('search')}
      filters={<>{select('type', ACCIDENT_TYPES, t('filterType'))}{select('level', ACCIDENT_LEVELS, t('filterLevel'))}{select('state', ACCIDENT_STATES, t('filterState'))}</>}
      fetchPage={(q) => accidentApi.page({ current: q.current, size: q.size, keyword: q.keyword || undefined, ...filter })}
      scope={{ companyId, filter }}
      columns={columns}
      actionsWidth={200}
      onCreate={() => setForm({})}
      onEdit={(accident) => setForm({ accident })}
      rowActions={(r) => <Button size="compact-xs" variant="subtle" onClick={() => setDetail(r.id)} data-testid={`accident-detail-${r.id}`}>{t('detail')}</Button>}
      remove={{ name: (r) => r.plate, message: (r) => t('deleteConfirm', { plate: r.plate }), call: (r) => accidentApi.remove([r.id]) }}
    >
      {form && !form.accident && <AccidentForm onClose={() => setForm(undefined)} onSaved={() => { setForm(undefined); void invalidate(); }} />}
      {form?.accident && <EditAccident accident={form.accident} onClose={() => setForm(undefined)} onSaved={() => { setForm(undefined); void invalidate(); }} />}
      {detail !== undefined && <AccidentDetail id={detail} onClose={() => setDetail(undefined)} />}
    </ListPage>
  );
}
