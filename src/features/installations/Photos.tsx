/**
 * Photos of an installation record: the picker (limits stated before any file is chosen; each file read
 * and checked by its bytes as the server will), stored photos as thumbnails from the authenticated photo
 * route (blob URLs through media-reports' `usePhoto`), and a viewer.
 */
import { useState } from 'react';
import { Anchor, Button, FileButton, Group, Image, Input, Loader, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { photoProblemText } from '../../../domain/fleet/installation.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { usePhoto } from '../media-reports/photo.ts';
import { photoUrl, type InstallationPhoto } from './api.ts';
import { readPhoto, type PickedPhoto } from './installation-form.ts';
import { INSTALLATION_NS, PHOTO_LIMIT_PARAMS } from './messages.ts';

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** New photos for a record: the limits first, then the chosen files with what is wrong with each. */
export function PhotoPicker({ photos, onChange, error, testId = 'installation-photos' }: {
  photos: PickedPhoto[];
  onChange: (photos: PickedPhoto[]) => void;
  error?: string;
  testId?: string;
}) {
  const t = useT(INSTALLATION_NS);
  const lang = useLang();
  const [reading, setReading] = useState(false);
  const add = async (files: File[]) => {
    if (files.length === 0) return;
    setReading(true);
    try {
      onChange([...photos, ...(await Promise.all(files.map(readPhoto)))]);
    } finally {
      setReading(false);
    }
  };
  return (
    <Input.Wrapper label={t('photos')} description={t('photoLimits', PHOTO_LIMIT_PARAMS)} error={error} data-testid={testId}>
      <Stack gap={6} mt={6}>
        <Group gap="xs">
          <FileButton onChange={(files) => void add(files)} accept="image/jpeg,image/png" multiple>
            {(props) => (
              <Button {...props} size="xs" variant="default" loading={reading} data-testid={`${testId}-pick`}>
                {t('pickPhotos')}
              </Button>
            )}
          </FileButton>
        </Group>
        {photos.map((p) => (
          <Group key={p.key} gap="xs" wrap="nowrap" data-testid={`${testId}-item`}>
            {p.problem ? null : <Image src={`data:${p.type || 'image/jpeg'};base64,${p.data}`} w={40} h={30} fit="cover" radius="xs" alt="" />}
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" truncate>{p.name} <Text span size="xs" c="dimmed">{sizeText(p.size)}</Text></Text>
              {p.problem && <Text size="xs" c="red">{photoProblemText(p.problem, lang)}</Text>}
            </Stack>
            <Anchor component="button" type="button" size="xs" onClick={() => onChange(photos.filter((x) => x.key !== p.key))}>
              {t('removePhoto')}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Input.Wrapper>
  );
}

/** One stored photo as a thumbnail; a click opens the viewer. */
export function PhotoThumb({ photo, onOpen, dimmed }: { photo: InstallationPhoto; onOpen?: () => void; dimmed?: boolean }) {
  const t = useT(INSTALLATION_NS);
  const state = usePhoto(photoUrl(photo.id));
  return (
    <Paper withBorder radius="sm" p={2} style={{ opacity: dimmed ? 0.35 : 1 }} data-testid="installation-photo">
      {state.state === 'ready' ? (
        <Image src={state.src} h={90} fit="cover" radius="xs" alt={photo.name} onClick={onOpen} style={{ cursor: onOpen ? 'zoom-in' : undefined }} />
      ) : state.state === 'loading' ? (
        <Group h={90} justify="center"><Loader size="sm" /></Group>
      ) : (
        <Text size="xs" c="red" h={90}>{t('photoFailed')}</Text>
      )}
      <Text size="xs" truncate title={photo.name}>{photo.name}</Text>
    </Paper>
  );
}

/** Stored photos in a grid with a viewer; `toggle` (the edit form) marks photos to remove on save. */
export function PhotoGrid({ photos, removing, toggle }: { photos: InstallationPhoto[]; removing?: number[]; toggle?: (id: number) => void }) {
  const t = useT(INSTALLATION_NS);
  const [open, setOpen] = useState<InstallationPhoto | null>(null);
  if (photos.length === 0) return <Text size="sm" c="dimmed">{t('noPhotos')}</Text>;
  return (
    <>
      <SimpleGrid cols={3} spacing="xs">
        {photos.map((p) => {
          const gone = removing?.includes(p.id) ?? false;
          return (
            <Stack key={p.id} gap={2}>
              <PhotoThumb photo={p} dimmed={gone} onOpen={() => setOpen(p)} />
              {toggle && (
                <Group justify="space-between" gap={4}>
                  {gone && <Text size="xs" c="red">{t('photoWillGo')}</Text>}
                  <Anchor component="button" type="button" size="xs" onClick={() => toggle(p.id)} data-testid="installation-photo-toggle">
                    {gone ? t('restorePhoto') : t('removePhoto')}
                  </Anchor>
                </Group>
              )}
            </Stack>
          );
        })}
      </SimpleGrid>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.name} size="xl" centered>
        {open && <PhotoView photo={open} />}
      </Modal>
    </>
  );
}

function PhotoView({ photo }: { photo: InstallationPhoto }) {
  const t = useT(INSTALLATION_NS);
  const state = usePhoto(photoUrl(photo.id));
  if (state.state === 'loading') return <Group justify="center" p="xl"><Loader /></Group>;
  if (state.state === 'failed') return <Text c="red">{t('photoFailed')}</Text>;
  return <Image src={state.src} alt={photo.name} fit="contain" mah="75vh" />;
}
