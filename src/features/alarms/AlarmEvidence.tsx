/**
 * The evidence of one alarm in its detail (issue 13): the photos and clips the media report holds for
 * it (`/service-report/media/alarmMedia` with `alarmIds`, the report's own call and right), a small
 * map at the alarm's position with one marker, the address (the server's reverse geocoder adds it
 * when the user's `geoInverse` setting is on), and buttons to the vehicle's live video and to the track around the
 * alarm (± 5 minutes). Platform-generated alarms carry no device evidence: no media call for them.
 */
import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { PLATFORM_GENERATED_CODES } from '../../../domain/alarms/catalogue.ts';
import { toDisplay } from '../../../domain/geo/gcj02.ts';
import { isApiError } from '../../api/http.ts';
import { navigateIfPermitted } from '../../app/navigation.ts';
import { useT } from '../../i18n/index.ts';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import { MediaPhoto } from '../media-reports/MediaPhoto.tsx';
import { usePhoto } from '../media-reports/photo.ts';
import { fetchAlarmMedia, type Alarm, type AlarmMediaItem } from './api.ts';
import { evidenceTrackHref, formatTime, liveVideoHref } from './format.ts';
import { ALARMS_NS } from './messages.ts';

/** JT/T 808 multimedia type: 0 image, 1 audio, 2 video. */
const MEDIA_VIDEO = 2;
const MEDIA_AUDIO = 1;

type MediaState = { state: 'loading' } | { state: 'ready'; items: AlarmMediaItem[] } | { state: 'denied' } | { state: 'failed'; message: string };

function Clip({ item }: { item: AlarmMediaItem }) {
  const t = useT(ALARMS_NS);
  const file = usePhoto(item.url);
  if (file.state !== 'ready') return <Text size="xs" c={file.state === 'failed' ? 'red' : 'dimmed'}>{file.state === 'failed' ? t('evidence.clipFailed') : t('evidence.loading')}</Text>;
  return item.mediaType === MEDIA_AUDIO
    ? <audio controls src={file.src} data-testid="evidence-clip" style={{ width: '100%' }} />
    : <video controls src={file.src} data-testid="evidence-clip" style={{ width: '100%', maxHeight: 180, background: 'black' }} />;
}

function EvidenceMap({ lng, lat }: { lng: number; lat: number }) {
  const crs = useDisplayCrs();
  const ref = useRef<MapHandle>(null);
  // deck.gl draws in the display CRS (GCJ-02 for such sources); the handle takes WGS-84.
  const layers = useMemo<Layer[]>(() => {
    const [x, y] = toDisplay(crs, lng, lat);
    return [new ScatterplotLayer({
      id: 'alarm-evidence-marker', data: [0], getPosition: () => [x, y], radiusUnits: 'pixels', getRadius: 7,
      getFillColor: [224, 49, 49, 255], stroked: true, lineWidthUnits: 'pixels', getLineWidth: 2, getLineColor: [255, 255, 255, 255],
    }) as Layer];
  }, [crs, lng, lat]);
  useEffect(() => {
    // ≈ 500 m either side: street level around the alarm.
    const timer = setTimeout(() => ref.current?.fitBounds(lng - 0.005, lat - 0.004, lng + 0.005, lat + 0.004), 50);
    return () => clearTimeout(timer);
  }, [lng, lat]);
  return (
    <div style={{ height: 200, position: 'relative', borderRadius: 4, overflow: 'hidden' }} data-testid="evidence-map" data-lng={lng} data-lat={lat}>
      <MapView ref={ref} layers={layers} />
    </div>
  );
}

export function AlarmEvidence({ alarm }: { alarm: Alarm }) {
  const t = useT(ALARMS_NS);
  const platform = PLATFORM_GENERATED_CODES.has(alarm.alarmType);
  const [media, setMedia] = useState<MediaState>({ state: 'loading' });
  const hasFix = Number.isFinite(alarm.lng) && Number.isFinite(alarm.lat) && !(alarm.lng === 0 && alarm.lat === 0);

  useEffect(() => {
    if (platform) return;
    let live = true;
    fetchAlarmMedia(alarm).then(
      (items) => live && setMedia({ state: 'ready', items }),
      (e: unknown) => {
        if (!live) return;
        if (isApiError(e) && e.code === 403) setMedia({ state: 'denied' });
        else setMedia({ state: 'failed', message: isApiError(e) ? e.msg : t('evidence.failed') });
      },
    );
    return () => {
      live = false;
    };
  }, [alarm, platform, t]);

  const photos = media.state === 'ready' ? media.items.filter((m) => m.mediaType !== MEDIA_VIDEO && m.mediaType !== MEDIA_AUDIO) : [];
  const clips = media.state === 'ready' ? media.items.filter((m) => m.mediaType === MEDIA_VIDEO || m.mediaType === MEDIA_AUDIO) : [];

  return (
    <Stack gap="xs" data-testid="alarm-evidence" data-state={platform ? 'platform' : media.state} data-photos={photos.length} data-clips={clips.length}>
      <Text fw={600}>{t('evidence.title')}</Text>
      {platform ? <Text size="sm" c="dimmed">{t('evidence.platform')}</Text> : null}
      {media.state === 'loading' && !platform ? <Text size="sm" c="dimmed">{t('evidence.loading')}</Text> : null}
      {media.state === 'denied' ? <Text size="sm" c="dimmed" data-testid="evidence-denied">{t('evidence.denied')}</Text> : null}
      {media.state === 'failed' ? <Alert color="red" p={6}>{media.message}</Alert> : null}
      {media.state === 'ready' && media.items.length === 0 ? <Text size="sm" c="dimmed" data-testid="evidence-none">{t('evidence.none')}</Text> : null}
      {photos.length > 0 ? (
        <SimpleGrid cols={2} spacing="xs">
          {photos.map((m) => (
            <Stack key={m.id} gap={2}>
              <MediaPhoto url={m.url} alt={`${alarm.vehiidno} ${t('evidence.channel', { n: m.channel })}`} height={120} />
              <Text size="xs" c="dimmed">{t('evidence.channel', { n: m.channel })} · {formatTime(m.captureTime)}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      ) : null}
      {clips.map((m) => (
        <Stack key={m.id} gap={2}>
          <Clip item={m} />
          <Text size="xs" c="dimmed">{t('evidence.channel', { n: m.channel })} · {formatTime(m.captureTime)}</Text>
        </Stack>
      ))}
      {hasFix ? (
        <>
          <EvidenceMap lng={alarm.lng} lat={alarm.lat} />
          {/* The server adds the address when the user's reverse geocoding setting is on. */}
          {alarm.address ? <Text size="sm" data-testid="evidence-address">{t('field.address')}: {alarm.address}</Text> : null}
        </>
      ) : (
        <Text size="sm" c="dimmed">{t('evidence.noFix')}</Text>
      )}
      <Group gap="xs">
        {/* A user without the target page gets the spec's 暂无该权限！ instead of a dead click. */}
        <Button size="xs" variant="light" onClick={() => navigateIfPermitted(liveVideoHref(alarm))} data-testid="evidence-live">{t('evidence.live')}</Button>
        <Button size="xs" variant="light" onClick={() => navigateIfPermitted(evidenceTrackHref(alarm, Date.now()))} data-testid="evidence-track">{t('evidence.track')}</Button>
      </Group>
    </Stack>
  );
}
