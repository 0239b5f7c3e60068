/**
 * /largeScreen/wallSetup — what an administrator does for the walls, in the console:
 * - display keys: create one for a company (the key is shown once, with each wall's address), list
 *   them with their last use, revoke one (its walls stop at once);
 * - wall layouts: each wall's preset as JSON (grid, panels, title, company, map view, theme), checked
 *   by the same rules as the server (domain/walls/preset.ts) before saving; restore the factory layout.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Select, Stack, Table, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { describeProblem, PANEL_KINDS, presetProblems, WALL_KEYS, type WallKey, type WallPreset } from '../../../domain/walls/preset.ts';
import { Perm } from '../../app/Perm.tsx';
import { BASEPATH } from '../../app/navigate.ts';
import { http } from '../../api/http.ts';
import { menuTitle, useLang, useT } from '../../i18n/index.ts';
import { ConfirmButton } from '../../kit/ConfirmButton.tsx';
import { errorText } from '../../kit/errors.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import type { Page } from '../../kit/useResourceList.ts';
import { companyOptionsApi } from '../system/api.ts';
import { companyOptions, renderCompanyOption } from '../system/company-options.tsx';
import { WALLS_NS } from './messages.ts';

const ROUTE = '/largeScreen/wallSetup';

interface DisplayRow {
  id: number; name: string; companyId: number; companyName: string; createdByName: string; createTime: number;
  lastSeen: number | null; lastIp: string | null; revokedTime: number | null; revokedByName: string | null;
}

const api = {
  page: (q: { current: number; size: number; keyword?: string }) => http.get<Page<DisplayRow>>('/service-priv/wall/display/page', q, { noCompanyId: true }),
  create: (v: { name: string; companyId: number }) => http.post<DisplayRow & { key: string }>('/service-priv/wall/display/create', v, { silent: true }),
  revoke: (id: number) => http.post<DisplayRow>('/service-priv/wall/display/revoke', { id }, { silent: true, noCompanyId: true }),
  presets: () => http.get<{ wall: WallKey; preset: WallPreset; stored: boolean; updatedBy: string | null; updateTime: number | null }[]>('/service-priv/wall/preset/list', undefined, { noCompanyId: true }),
  savePreset: (wall: WallKey, preset: unknown) => http.post('/service-priv/wall/preset/save', { wall, preset }, { silent: true, noCompanyId: true }),
  resetPreset: (wall: WallKey) => http.post('/service-priv/wall/preset/reset', { wall }, { silent: true, noCompanyId: true }),
};

const fmt = (t: number | null) => (t === null ? '' : new Date(t).toLocaleString('zh-CN', { hour12: false }));

/** A wall's address for a key (what a kiosk browser opens). */
export function wallAddress(wall: WallKey, key: string, origin = location.origin): string {
  return `${origin}${BASEPATH}/largeScreen/${wall}?key=${encodeURIComponent(key)}`;
}

export function WallSetupPage() {
  const t = useT(WALLS_NS);
  return (
    <Tabs defaultValue="displays" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="displays">{t('setup.displays')}</Tabs.Tab>
        <Tabs.Tab value="presets">{t('setup.presets')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="displays" pt="sm"><DisplayKeys /></Tabs.Panel>
      <Tabs.Panel value="presets" pt="sm"><Presets /></Tabs.Panel>
    </Tabs>
  );
}

function DisplayKeys() {
  const t = useT(WALLS_NS);
  const lang = useLang();
  const invalidate = useInvalidate(ROUTE);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<(DisplayRow & { key: string }) | null>(null);
  const columns: KitColumn<DisplayRow>[] = [
    { key: 'name', title: t('setup.name'), minWidth: 140, maxWidth: 260, render: (r) => <Text size="sm" fw={500}>{r.name}</Text> },
    { key: 'company', title: t('setup.company'), minWidth: 120, maxWidth: 240, render: (r) => r.companyName },
    { key: 'createdBy', title: t('setup.createdBy'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'createTime', title: t('setup.createTime'), minWidth: 150, maxWidth: 180, render: (r) => fmt(r.createTime) },
    { key: 'lastSeen', title: t('setup.lastSeen'), minWidth: 150, maxWidth: 220, render: (r) => (r.lastSeen === null ? t('setup.never') : `${fmt(r.lastSeen)} ${r.lastIp ?? ''}`) },
    {
      key: 'status', title: t('setup.status'), minWidth: 100, maxWidth: 200,
      render: (r) => (r.revokedTime === null ? <Badge color="green" variant="light">{t('setup.active')}</Badge> : <Badge color="gray" variant="light">{t('setup.revokedAt', { by: r.revokedByName ?? '' })}</Badge>),
    },
  ];
  return (
    <Stack gap="sm">
      {created && (
        <Alert color="yellow" title={created.name} withCloseButton onClose={() => setCreated(null)} data-testid="display-key-once">
          <Text size="sm" mb="xs">{t('setup.keyOnce')}</Text>
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {WALL_KEYS.map((w) => (
                <Table.Tr key={w}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{menuTitle(`/largeScreen/${w}`, lang)}</Table.Td>
                  <Table.Td><Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid={`wall-address-${w}`}>{wallAddress(w, created.key)}</Text></Table.Td>
                  <Table.Td>
                    <CopyButton value={wallAddress(w, created.key)}>
                      {({ copied, copy }) => <Button size="compact-xs" variant="light" onClick={copy}>{copied ? t('setup.copied') : t('setup.copy')}</Button>}
                    </CopyButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Alert>
      )}
      <ListPage<DisplayRow>
        route={ROUTE}
        pageId="wall-displays"
        title={t('setup.displays')}
        searchPlaceholder={t('setup.search')}
        fetchPage={(q) => api.page({ current: q.current, size: q.size, keyword: q.keyword || undefined })}
        columns={columns}
        actionsWidth={110}
        toolbar={
          <Perm route={ROUTE} button="createDisplay">
            <Button size="sm" onClick={() => setCreating(true)} data-testid="display-create">{t('setup.create')}</Button>
          </Perm>
        }
        rowActions={(r) =>
          r.revokedTime === null ? (
            <Perm route={ROUTE} button="revokeDisplay">
              <ConfirmButton size="compact-xs" variant="light" message={t('setup.revokeConfirm', { name: r.name })} onConfirm={async () => { await api.revoke(r.id); await invalidate(); }} data-testid="display-revoke">
                {t('setup.revoke')}
              </ConfirmButton>
            </Perm>
          ) : null
        }
      >
        {creating && <CreateDisplay onClose={() => setCreating(false)} onCreated={(c) => { setCreated(c); setCreating(false); void invalidate(); }} />}
      </ListPage>
    </Stack>
  );
}

function CreateDisplay({ onClose, onCreated }: { onClose: () => void; onCreated: (c: DisplayRow & { key: string }) => void }) {
  const t = useT(WALLS_NS);
  const companies = useQuery({ queryKey: [ROUTE, 'companies'], queryFn: () => companyOptionsApi.tree() });
  const form = useForm<{ name: string; companyId: number | null }>({
    mode: 'controlled',
    initialValues: { name: '', companyId: null },
    validate: {
      name: (v) => (v.trim().length === 0 || v.length > 40 ? t('setup.name') : null),
      companyId: (v) => (v === null ? t('setup.company') : null),
    },
  });
  // The caller's own company is the natural default (the first of the tree).
  const first = companies.data?.[0]?.id;
  useEffect(() => {
    if (first !== undefined && form.getValues().companyId === null) form.setFieldValue('companyId', first);
  }, [first, form]);
  const made = useRef<(DisplayRow & { key: string }) | null>(null);
  return (
    <FormDrawer
      title={t('setup.create')}
      form={form}
      testId="display-form"
      onClose={onClose}
      submit={async (v) => { made.current = await api.create({ name: v.name.trim(), companyId: v.companyId! }); }}
      onSaved={() => made.current && onCreated(made.current)}
    >
      <TextInput label={t('setup.name')} placeholder={t('setup.namePlaceholder')} required maxLength={40} name="name" {...form.getInputProps('name')} />
      <Select
        label={t('setup.company')}
        description={t('setup.companyHint')}
        required
        searchable
        name="companyId"
        data={companyOptions(companies.data ?? [])}
        renderOption={renderCompanyOption}
        value={form.getValues().companyId === null ? null : String(form.getValues().companyId)}
        onChange={(v) => form.setFieldValue('companyId', v === null ? null : Number(v))}
        error={form.errors['companyId']}
      />
    </FormDrawer>
  );
}

function Presets() {
  const t = useT(WALLS_NS);
  const lang = useLang();
  const presets = useQuery({ queryKey: [ROUTE, 'presets'], queryFn: () => api.presets() });
  const [editing, setEditing] = useState<WallKey | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const open = (wall: WallKey, preset: WallPreset) => {
    setEditing(wall);
    setText(JSON.stringify(preset, null, 2));
    setProblem(null);
  };
  const save = async () => {
    if (!editing) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setProblem(t('setup.jsonInvalid', { message: e instanceof Error ? e.message : String(e) }));
      return;
    }
    const problems = presetProblems(parsed);
    if (problems.length > 0) {
      setProblem(problems.map((p) => describeProblem(p, lang)).join(lang === 'zh' ? '；' : '; '));
      return;
    }
    setSaving(true);
    try {
      await api.savePreset(editing, parsed);
      notifications.show({ color: 'green', message: t('setup.saved') });
      setEditing(null);
      await presets.refetch();
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      {presets.isError && <Alert color="red">{errorText(presets.error)}</Alert>}
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr><Table.Th>{t('setup.wall')}</Table.Th><Table.Th>{t('setup.status')}</Table.Th><Table.Th /></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {presets.data?.map((p) => (
            <Table.Tr key={p.wall} data-testid={`preset-${p.wall}`}>
              <Table.Td>{menuTitle(`/largeScreen/${p.wall}`, lang)} · {lang === 'en' ? p.preset.title.en : p.preset.title.zh}</Table.Td>
              <Table.Td>{p.stored ? <Badge variant="light">{t('setup.stored')} · {p.updatedBy} {fmt(p.updateTime)}</Badge> : <Badge variant="light" color="gray">{t('setup.factory')}</Badge>}</Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button size="compact-xs" variant="default" component="a" href={`${BASEPATH}/largeScreen/${p.wall}`} target="_blank" rel="noopener">{t('setup.open')}</Button>
                  <Perm route={ROUTE} button="editPreset">
                    <Button size="compact-xs" variant="light" onClick={() => open(p.wall, p.preset)} data-testid="preset-edit">{t('setup.edit')}</Button>
                  </Perm>
                  {p.stored && (
                    <Perm route={ROUTE} button="editPreset">
                      <ConfirmButton size="compact-xs" variant="light" color="gray" message={t('setup.resetConfirm', { wall: menuTitle(`/largeScreen/${p.wall}`, lang) })} onConfirm={async () => { await api.resetPreset(p.wall); await presets.refetch(); }}>
                        {t('setup.reset')}
                      </ConfirmButton>
                    </Perm>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {editing && (
        <Stack gap="xs" data-testid="preset-editor">
          <Text fw={600}>{menuTitle(`/largeScreen/${editing}`, lang)}</Text>
          <Text size="xs" c="dimmed">{t('setup.kinds', { kinds: PANEL_KINDS.join(', ') })}</Text>
          {problem && <Alert color="red" role="alert" data-testid="preset-problem">{problem}</Alert>}
          <Textarea label={t('setup.jsonLabel')} value={text} onChange={(e) => setText(e.currentTarget.value)} autosize minRows={12} maxRows={28} ff="monospace" spellCheck={false} data-testid="preset-json" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(null)} disabled={saving}>{t('setup.cancel')}</Button>
            <Button onClick={() => void save()} loading={saving} data-testid="preset-save">{t('setup.save')}</Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
