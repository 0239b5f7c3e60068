/**
 * /operation/operationManagement/opsCheckSetting — the selected company's KPI targets and weights, where
 * they come from (own, inherited, defaults) and who changed them. Checked with the server's domain rule
 * (weights sum to 100, targets in range) before saving; the server's message shows on refusal.
 */
import { Alert, Button, Group, NumberInput, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import { checkTargets, KPI_CODES, KPI_DEFS, WEIGHT_TOTAL, type KpiCode } from '../../../domain/ops-check/kpi.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { errorText } from '../appraisal/LoadError.tsx';
import { useLoad } from '../appraisal/use-load.ts';
import { opsCheckApi, type KpiSettingView } from './api.ts';
import { OPS_CHECK_NS } from './messages.ts';

export const SETTING_ROUTE = '/operation/operationManagement/opsCheckSetting';

type Draft = Record<KpiCode, { target: number | string; weight: number | string }>;
const toNumber = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));
const timeText = (ms: number | null) => (ms === null ? '' : new Date(ms).toLocaleString());

export function OpsCheckSettingPage() {
  const t = useT(OPS_CHECK_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [n, setN] = useState(0);
  const [edits, setEdits] = useState<{ of: KpiSettingView; draft: Draft } | null>(null);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- companyId and n reload (the client injects the company)
  const load = useCallback((signal: AbortSignal) => opsCheckApi.setting(signal), [companyId, n]);
  const { data: view, error } = useLoad<KpiSettingView>(load);
  const draft: Draft | null = useMemo(() => {
    if (!view) return null;
    if (edits?.of === view) return edits.draft;
    return Object.fromEntries(view.items.map((i) => [i.code, { target: i.target, weight: i.weight }])) as Draft;
  }, [view, edits]);
  const items = draft ? KPI_CODES.map((code) => ({ code, target: toNumber(draft[code].target), weight: toNumber(draft[code].weight) })) : [];
  const problem = draft ? checkTargets(items) : undefined;
  const sum = items.reduce((s, i) => s + (Number.isFinite(i.weight) ? i.weight : 0), 0);
  const set = (code: KpiCode, part: 'target' | 'weight', v: number | string) => {
    if (view && draft) setEdits({ of: view, draft: { ...draft, [code]: { ...draft[code], [part]: v } } });
  };
  const errorOf = (code: KpiCode, field: 'target' | 'weight') =>
    tried && problem && problem.index >= 0 && items[problem.index]?.code === code && problem.field === field ? problem.message(lang) : undefined;

  const save = async () => {
    setTried(true);
    if (problem) return;
    setSaving(true);
    try {
      await opsCheckApi.saveSetting(items);
      notifications.show({ color: 'green', message: t('setting.saved') });
      setEdits(null);
      setTried(false);
      setN((x) => x + 1);
    } catch (e) {
      notifications.show({ color: 'red', message: t('setting.saveFailed', { msg: errorText(e) }) });
    } finally {
      setSaving(false);
    }
  };

  if (error) {
    return (
      <Alert color="red" m="md" data-testid="setting-error">
        <Group justify="space-between"><Text size="sm">{t('failed', { msg: errorText(error) })}</Text>
          <Button size="xs" variant="light" onClick={() => setN((x) => x + 1)}>{t('retry')}</Button></Group>
      </Alert>
    );
  }
  if (!view || !draft) return <Text p="md" c="dimmed">{t('loading')}</Text>;
  const source = view.fromCompanyId === null ? t('setting.defaults') : view.inherited ? t('setting.inherited') : t('setting.own');
  const wholeProblem = tried && problem && problem.index < 0 ? problem.message(lang) : null;

  return (
    <Stack gap="md" p="md" maw={900} data-page="ops-check-setting" data-testid="ops-check-setting-page">
      <Title order={4}>{t('title.setting')}</Title>
      <Paper withBorder p="sm">
        <Text size="sm">{t('setting.company', { name: view.companyName })}</Text>
        <Text size="sm" data-testid="setting-source">{source}</Text>
        {view.updateTime !== null && <Text size="sm" c="dimmed">{t('setting.updater', { name: view.updateUser, time: timeText(view.updateTime) })}</Text>}
      </Paper>
      <Table withTableBorder>
        <Table.Thead><Table.Tr><Table.Th>{t('kpi')}</Table.Th><Table.Th>{t('setting.target')}</Table.Th><Table.Th>{t('setting.weight')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {KPI_CODES.map((code) => {
            const def = KPI_DEFS[code];
            return (
              <Table.Tr key={code}>
                <Table.Td><Text size="sm">{lang === 'zh' ? def.zh : def.en}</Text><Text size="xs" c="dimmed">{def.higherIsBetter ? t('setting.higher') : t('setting.lower')}</Text></Table.Td>
                <Table.Td>
                  <NumberInput size="sm" w={160} value={draft[code].target} onChange={(v) => set(code, 'target', v)} min={def.min} max={def.max} decimalScale={2}
                    suffix={def.unit === '%' ? ' %' : lang === 'zh' ? ' 分钟' : ' min'} error={errorOf(code, 'target')} data-testid={`target-${code}`} aria-label={`${def.zh} ${t('setting.target')}`} />
                </Table.Td>
                <Table.Td>
                  <NumberInput size="sm" w={120} value={draft[code].weight} onChange={(v) => set(code, 'weight', v)} min={0} max={WEIGHT_TOTAL} allowDecimal={false}
                    error={errorOf(code, 'weight')} data-testid={`weight-${code}`} aria-label={`${def.zh} ${t('setting.weight')}`} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Text size="sm" c={sum === WEIGHT_TOTAL ? 'dimmed' : 'red'} data-testid="weight-sum">{t('setting.sum', { sum })}</Text>
      {wholeProblem && <Text size="sm" c="red" role="alert" data-testid="setting-problem">{wholeProblem}</Text>}
      <Group>
        <Perm route={SETTING_ROUTE} button="update">
          <Button onClick={() => void save()} loading={saving} data-testid="setting-save">{t('setting.save')}</Button>
        </Perm>
      </Group>
      <Text size="xs" c="dimmed">{t('setting.rule')}</Text>
    </Stack>
  );
}
