/**
 * User menu favourites in the shell's header (issue 19, usermenu/collect · cancel · mycollection): a star
 * that lists this user's starred pages (stored on the server, per user) and stars or unstars the page
 * open now. Only pages of the menu the user may open can be starred (the server checks the same).
 */
import { ActionIcon, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { navigateHref } from '../../app/navigate.ts';
import { menuTitle, useLang, useT } from '../../i18n/index.ts';
import { useAccess, useSession } from '../../session/store.ts';
import { FAVOURITES_KEY, favouriteApi } from './api.ts';
import { NOTICES_NS } from './messages.ts';

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" strokeLinejoin="round" aria-hidden>
      <path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3l-5.9 3.2 1.3-6.5-4.9-4.6 6.6-.8z" />
    </svg>
  );
}

export function FavouritesMenu({ activePath }: { activePath: string }) {
  const t = useT(NOTICES_NS);
  const lang = useLang();
  const access = useAccess();
  const signedIn = useSession().user !== null;
  const client = useQueryClient();
  const list = useQuery({ queryKey: [FAVOURITES_KEY], queryFn: () => favouriteApi.mine(), enabled: signedIn });
  const favourites = list.data ?? [];
  const current = entryByKey(activePath);
  const canStar = current?.type === 1 && access.canSeeRoute(activePath);
  const starred = favourites.some((f) => f.routeKey === activePath);

  const toggle = async () => {
    const next = starred ? await favouriteApi.cancel(activePath) : await favouriteApi.collect(activePath);
    client.setQueryData([FAVOURITES_KEY], next);
    notifications.show({ message: starred ? t('fav.removed') : t('fav.added'), autoClose: 2000 });
  };

  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('fav.label')} title={t('fav.label')} data-testid="favourites" data-starred={starred} c={starred ? 'yellow.6' : undefined}>
          <StarIcon filled={starred} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="favourites-dropdown">
        <Menu.Label>{t('fav.label')}</Menu.Label>
        {favourites.length === 0 && <Text size="sm" c="dimmed" px="sm" py="xs">{t('fav.none')}</Text>}
        {favourites.map((f) => (
          <Menu.Item key={f.routeKey} data-testid="favourite-item" data-route={f.routeKey} fw={f.routeKey === activePath ? 600 : undefined}
            onClick={() => void navigateHref(f.routeKey)}>
            {menuTitle(f.routeKey, lang)}
          </Menu.Item>
        ))}
        {canStar && (
          <>
            <Menu.Divider />
            <Menu.Item data-testid="favourite-toggle" leftSection={<StarIcon filled={!starred} />} onClick={() => void toggle()}>
              {starred ? t('fav.remove') : t('fav.add')}
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
