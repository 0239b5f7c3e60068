/**
 * Map source settings: the bundled offline basemap first, then common public basemaps as presets
 * (marked "needs internet"), then the user's own sources; a custom raster XYZ or style URL (http(s)
 * only) with its CRS (GCJ-02 for AMap/Tencent-style tiles) can still be added. Persisted in localStorage.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { BUNDLED_ID, PRESETS, validateSource, withPreset, type MapSourceKind, type UserMapSource } from './map-sources.ts';
import { mapSourceStore, useMapSources } from './map-source-store.ts';
import { MAP_NS } from './messages.ts';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { formatBytes, STREETS_PREFIX, useStreetArchives, withStreetArchive } from './streets/archives.ts';

function LayersIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M12 3 2 8l10 5 10-5-10-5Z" />
      <path d="m2 16 10 5 10-5M2 12l10 5 10-5" />
    </svg>
  );
}

/** A button (for the map's corner) that opens the map source settings. */
export function MapSourcesButton() {
  const t = useT(MAP_NS);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip label={t('sources')}>
        <ActionIcon variant="default" size="lg" aria-label={t('sources')} onClick={() => setOpen(true)} data-testid="map-sources-button">
          <LayersIcon />
        </ActionIcon>
      </Tooltip>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('sources')} size="lg">
        <MapSourcesPanel />
      </Modal>
    </>
  );
}

export function MapSourcesPanel() {
  const t = useT(MAP_NS);
  const settings = useMapSources();
  const archives = useStreetArchives();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<MapSourceKind>('raster');
  const [url, setUrl] = useState('');
  const [crs, setCrs] = useState<DisplayCrs>('wgs84');
  const [tileSize, setTileSize] = useState('256');
  const [problems, setProblems] = useState<string[]>([]);

  const choose = (id: string) => mapSourceStore.set({ ...settings, activeId: id });
  const remove = (id: string) =>
    mapSourceStore.set({
      activeId: settings.activeId === id ? BUNDLED_ID : settings.activeId,
      sources: settings.sources.filter((s) => s.id !== id),
    });
  const add = () => {
    const candidate = { name: name.trim(), kind, url: url.trim(), tileSize: kind === 'raster' ? Number(tileSize) : undefined };
    const found = validateSource(candidate);
    setProblems(found);
    if (found.length > 0) return;
    const source: UserMapSource = { id: `src-${Date.now().toString(36)}`, name: candidate.name, kind, url: candidate.url, crs };
    if (candidate.tileSize) source.tileSize = candidate.tileSize;
    mapSourceStore.set({ activeId: source.id, sources: [...settings.sources, source] });
    setName('');
    setUrl('');
  };

  const row = (id: string, label: string, detail: string, online = true, onUse = () => choose(id)) => (
    <Group key={id} justify="space-between" wrap="nowrap" data-testid="map-source" data-source-id={id}>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500}>
            {label}
          </Text>
          <Badge size="xs" variant="light" color={online ? 'orange' : 'green'}>
            {online ? t('needsInternet') : t('offline')}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {detail}
        </Text>
      </Stack>
      <Group gap="xs" wrap="nowrap">
        {settings.activeId === id ? (
          <Badge>{t('inUse')}</Badge>
        ) : (
          <Button size="xs" variant="light" onClick={onUse} data-testid="map-source-use">
            {t('use')}
          </Button>
        )}
        {id !== BUNDLED_ID && settings.sources.some((s) => s.id === id) ? (
          <Button size="xs" variant="subtle" color="red" onClick={() => remove(id)}>
            {t('remove')}
          </Button>
        ) : null}
      </Group>
    </Group>
  );

  return (
    <Stack>
      {row(BUNDLED_ID, t('bundled'), 'WGS-84', false)}
      {/* Street maps the server holds (TILES_DIR): offline like the bundled one. */}
      {archives.map((a) => row(`${STREETS_PREFIX}${a.name}`, t('streets'), `${a.name} · ${formatBytes(a.bytes)} · ${t('streetsZoom', { max: a.maxZoom })} · WGS-84`, false, () => mapSourceStore.set(withStreetArchive(settings, a))))}
      <Text fw={600} size="sm" mt="xs">
        {t('presets')}
      </Text>
      {PRESETS.map((p) => row(p.id, t(p.nameKey), `${p.crs === 'gcj02' ? 'GCJ-02' : 'WGS-84'} · ${p.kind === 'style' ? t('kindStyle') : t('kindRaster')}`, true, () => mapSourceStore.set(withPreset(settings, p.id))))}
      {settings.sources.some((s) => !s.id.startsWith('preset-') && !s.id.startsWith(STREETS_PREFIX)) && (
        <Text fw={600} size="sm" mt="xs">
          {t('ownSources')}
        </Text>
      )}
      {settings.sources.filter((s) => !s.id.startsWith('preset-') && !s.id.startsWith(STREETS_PREFIX)).map((s) => row(s.id, s.name, `${s.crs === 'gcj02' ? 'GCJ-02' : 'WGS-84'} · ${s.url}`))}
      <Text fw={600} size="sm" mt="md">
        {t('addSource')}
      </Text>
      <TextInput label={t('name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.includes('nameRequired') ? t('nameRequired') : undefined} />
      <Select
        label={t('kind')}
        value={kind}
        onChange={(v) => setKind(v === 'style' ? 'style' : 'raster')}
        data={[
          { value: 'raster', label: t('kindRaster') },
          { value: 'style', label: t('kindStyle') },
        ]}
        allowDeselect={false}
      />
      <TextInput
        label={t('url')}
        description={kind === 'raster' ? t('urlHintRaster') : t('urlHintStyle')}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={problems.filter((p) => p.startsWith('url')).map((p) => t(p)).join(' ') || undefined}
      />
      <Group grow>
        <Select
          label={t('crs')}
          value={crs}
          onChange={(v) => setCrs(v === 'gcj02' ? 'gcj02' : 'wgs84')}
          data={[
            { value: 'wgs84', label: t('crsWgs84') },
            { value: 'gcj02', label: t('crsGcj02') },
          ]}
          allowDeselect={false}
        />
        {kind === 'raster' ? (
          <Select label={t('tileSize')} value={tileSize} onChange={(v) => setTileSize(v ?? '256')} data={['256', '512']} allowDeselect={false} />
        ) : null}
      </Group>
      <Group justify="flex-end">
        <Button onClick={add}>{t('add')}</Button>
      </Group>
    </Stack>
  );
}
