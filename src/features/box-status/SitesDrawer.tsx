import { useState } from 'react';
import { Alert, Button, Drawer, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { boxApi, BOX_ROUTE } from './api.ts';
import { BOX_NS } from './messages.ts';

/**
 * The approved disposal sites (circles) of the selected company: 70004 (unloading outside a site)
 * is checked against them and the sites of the companies above. Adding and deleting need the
 * :site button; inherited sites are shown read-only.
 */
export function SitesDrawer({ onClose }: { onClose: () => void }) {
  const t = useT(BOX_NS);
  const { companyId } = useCompanySelection();
  const client = useQueryClient();
  const key = [BOX_ROUTE, 'sites', companyId];
  const sites = useQuery({ queryKey: key, queryFn: () => boxApi.sites() });
  const [form, setForm] = useState({ name: '', lng: '' as number | string, lat: '' as number | string, radiusM: 500 as number | string });
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const save = async () => {
    setProblem(null);
    try {
      await boxApi.saveSite({ name: form.name, lng: Number(form.lng), lat: Number(form.lat), radiusM: Number(form.radiusM) });
      setForm({ ...form, name: '' });
      await refresh();
    } catch (err) {
      setProblem((err as { msg?: string }).msg ?? String(err));
    }
  };
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={t('sitesTitle')}>
      <Stack gap="sm" data-testid="box-sites">
        <Text size="sm" c="dimmed">{t('sitesHint')}</Text>
        {sites.error && <Alert color="red">{(sites.error as { msg?: string }).msg ?? String(sites.error)}</Alert>}
        {sites.data?.length === 0 && <Text size="sm">{t('noSites')}</Text>}
        {sites.data?.map((s) => (
          <Group key={s.id} justify="space-between" wrap="nowrap" data-testid="box-site-row">
            <Stack gap={0}>
              <Text size="sm" fw={500}>{s.name}</Text>
              <Text size="xs" c="dimmed">{s.lng.toFixed(5)}, {s.lat.toFixed(5)} · {t('radius', { m: s.radiusM })}{s.inherited ? ` · ${t('inherited')}` : ''}</Text>
            </Stack>
            {!s.inherited && (
              <Perm route={BOX_ROUTE} button="site">
                <Button size="compact-xs" color="red" variant="light" onClick={() => void boxApi.deleteSite(s.id).then(refresh)}>{t('delete')}</Button>
              </Perm>
            )}
          </Group>
        ))}
        <Perm route={BOX_ROUTE} button="site">
          <Stack gap="xs">
            <TextInput size="sm" label={t('siteName')} data-testid="box-site-name" value={form.name} maxLength={50} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            <Group grow>
              <NumberInput size="sm" label={t('lng')} data-testid="box-site-lng" min={-180} max={180} decimalScale={6} value={form.lng} onChange={(v) => setForm({ ...form, lng: v })} />
              <NumberInput size="sm" label={t('lat')} data-testid="box-site-lat" min={-90} max={90} decimalScale={6} value={form.lat} onChange={(v) => setForm({ ...form, lat: v })} />
              <NumberInput size="sm" label={t('radiusM')} min={10} max={10000} value={form.radiusM} onChange={(v) => setForm({ ...form, radiusM: v })} />
            </Group>
            {problem && <Alert color="red">{problem}</Alert>}
            <Button size="sm" data-testid="box-site-add" onClick={() => void save()} disabled={!form.name.trim() || form.lng === '' || form.lat === ''}>{t('addSite')}</Button>
          </Stack>
        </Perm>
      </Stack>
    </Drawer>
  );
}
