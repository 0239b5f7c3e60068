/**
 * /safeManagement/vehicleScore/checkSetting — the selected company's appraisal settings: a weight in
 * percent and a threshold in alarms per 100 km per category, where they come from (own, inherited,
 * defaults) and who created and last changed them. Checked with the server's domain rule before saving.
 */
import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import {
  APPRAISAL_CATEGORIES, categoryName, settingsProblemMessage, validateSettings, type AppraisalCategory, type PerCategory,
} from '../../../domain/appraisal/rules.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { appraisalApi, type AppraisalSettingView } from './api.ts';
import { errorText } from './LoadError.tsx';
import { APPRAISAL_NS } from './messages.ts';
import { useLoad } from './use-load.ts';


/** `2026-11-22 08:05` in the browser's time zone. */
const timeText = (ms: number | null) => {
  if (ms === null) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

type Draft = { weights: PerCategory<number | string>; thresholds: PerCategory<number | string> };

const toNumber = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));

export function CheckSettingPage() {
  const t = useT(APPRAISAL_NS);
  const lang = useLang();
  const { companyId } = useCompanySelection();
  const [saved, setSaved] = useState<AppraisalSettingView | null>(null);
  const [edits, setEdits] = useState<{ of: AppraisalSettingView; draft: Draft } | null>(null);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const [n, setN] = useState(0);

  // eslint-disable-next-line react-hooks/exhaustive-deps -- companyId and n reload (the client injects the company)
  const load = useCallback((signal: AbortSignal) => appraisalApi.setting(signal), [companyId, n]);
  const loaded = useLoad<AppraisalSettingView>(load);
  const error = loaded.error === null ? null : errorText(loaded.error);
  // What the server holds: the latest load, or the answer of a save made after it.
  const view = saved !== null && saved.companyId === loaded.data?.companyId && (loaded.data.updateTime ?? 0) <= (saved.updateTime ?? 0) ? saved : loaded.data;
  // Edits belong to the view they were made on; a newer view starts from its own values.
  const draft: Draft | null = useMemo(
    () => (view === null ? null : edits?.of === view ? edits.draft : { weights: { ...view.weights }, thresholds: { ...view.thresholds } }),
    [view, edits],
  );
  const setDraft = (f: (d: Draft) => Draft) => {
    if (view !== null && draft !== null) setEdits({ of: view, draft: f(draft) });
  };

  const numbers = useMemo(() => draft && {
    weights: Object.fromEntries(APPRAISAL_CATEGORIES.map((c) => [c, toNumber(draft.weights[c])])) as PerCategory<number>,
    thresholds: Object.fromEntries(APPRAISAL_CATEGORIES.map((c) => [c, toNumber(draft.thresholds[c])])) as PerCategory<number>,
  }, [draft]);
  const problems = useMemo(() => (numbers ? validateSettings(numbers) : []), [numbers]);
  const sum = numbers ? APPRAISAL_CATEGORIES.reduce((s, c) => s + (Number.isFinite(numbers.weights[c]) ? numbers.weights[c] : 0), 0) : 0;
  const fieldError = (field: string) => {
    if (!tried) return undefined;
    const p = problems.find((x) => x.field === field);
    return p ? settingsProblemMessage(p, lang) : undefined;
  };

  const set = (part: 'weights' | 'thresholds', c: AppraisalCategory, v: number | string) =>
    setDraft((d) => ({ ...d, [part]: { ...d[part], [c]: v } }));

  const save = async () => {
    setTried(true);
    if (!numbers || problems.length > 0) return;
    setSaving(true);
    try {
      const v = await appraisalApi.saveSetting(numbers.weights, numbers.thresholds);
      setSaved(v);
      setEdits(null);
      setTried(false);
      notifications.show({ color: 'green', message: t('setting.saved') });
    } catch (e) {
      notifications.show({ color: 'red', message: t('setting.saveFailed', { msg: errorText(e) }) });
    } finally {
      setSaving(false);
    }
  };

  if (error !== null) {
    return (
      <Alert color="red" m="md" data-testid="setting-error">
        <Group justify="space-between">
          <Text size="sm">{t('failed', { msg: error })}</Text>
          <Button size="xs" variant="light" onClick={() => setN((x) => x + 1)}>{t('retry')}</Button>
        </Group>
      </Alert>
    );
  }
  if (!view || !draft) return <Text p="md" c="dimmed">{t('loading')}</Text>;

  const source = view.fromCompanyId === null
    ? t('setting.source.defaults')
    : view.fromCompanyId === view.companyId ? t('setting.source.own') : t('setting.source.inherited', { name: view.fromCompanyName ?? `#${view.fromCompanyId}` });
  const sumProblem = tried ? problems.find((p) => p.kind === 'weightSum') : undefined;

  return (
    <Stack gap="md" p="md" maw={900} data-testid="check-setting-page">
      <Title order={4}>{t('title.setting')}</Title>
      <Paper withBorder p="sm">
        <Stack gap={4}>
          <Text size="sm">{t('setting.company', { name: view.companyName })}</Text>
          <Text size="sm" data-testid="setting-source" data-from={view.fromCompanyId ?? ''}>{source}</Text>
          {view.creatorName !== null && <Text size="sm" c="dimmed" data-testid="setting-creator">{t('setting.creator', { name: view.creatorName, time: timeText(view.createTime) })}</Text>}
          {view.updaterName !== null && <Text size="sm" c="dimmed" data-testid="setting-updater">{t('setting.updater', { name: view.updaterName, time: timeText(view.updateTime) })}</Text>}
        </Stack>
      </Paper>
      <SimpleGrid cols={2} spacing="xl">
        <Stack gap="xs">
          <Text fw={600}>{t('setting.weights')}</Text>
          <Text size="xs" c="dimmed">{t('setting.weightsHint')}</Text>
          {APPRAISAL_CATEGORIES.map((c) => (
            <NumberInput
              key={c} label={categoryName(c, lang)} value={draft.weights[c]} onChange={(v) => set('weights', c, v)}
              min={0} max={100} step={5} allowDecimal={false} suffix="%" error={fieldError(`weights.${c}`)} data-testid={`weight-${c}`}
            />
          ))}
          <Text size="sm" c={sum === 100 ? 'dimmed' : 'red'} data-testid="weight-sum">{t('setting.sum', { sum })}</Text>
          {sumProblem && <Text size="sm" c="red" role="alert">{settingsProblemMessage(sumProblem, lang)}</Text>}
        </Stack>
        <Stack gap="xs">
          <Text fw={600}>{t('setting.thresholds')}</Text>
          <Text size="xs" c="dimmed">{t('setting.thresholdsHint')}</Text>
          {APPRAISAL_CATEGORIES.map((c) => (
            <NumberInput
              key={c} label={categoryName(c, lang)} value={draft.thresholds[c]} onChange={(v) => set('thresholds', c, v)}
              min={0} step={0.5} decimalScale={2} error={fieldError(`thresholds.${c}`)} data-testid={`threshold-${c}`}
            />
          ))}
        </Stack>
      </SimpleGrid>
      <Group>
        <Button onClick={() => void save()} loading={saving} data-testid="setting-save">{t('setting.save')}</Button>
        <Button variant="default" onClick={() => setDraft(() => ({ weights: { ...view.defaults.weights }, thresholds: { ...view.defaults.thresholds } }))} data-testid="setting-defaults">
          {t('setting.reset')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">{t('setting.rule')}</Text>
    </Stack>
  );
}
