/**
 * The vehicle menu (spec §2 /global rightMenu): on the map's right-click on a vehicle, the vehicle
 * list's right-click and the info card's menu button. Shown only to users holding menu808 of
 * /global/rightMenu; each command also needs its own bit (vehicle-commands.ts). Device commands are
 * disabled with the reason while the vehicle is offline, as in the alarm pop-up.
 */
import { Button, Menu, Portal } from '@mantine/core';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { useAccess } from '../../session/store.ts';
import { LAYERS } from '../../shell/layers.ts';
import { MENU_AREA, MENU_BUTTON, menuEntries, NOT_BUILT, type VehicleCommand } from './vehicle-commands.ts';
import { MONITOR_NS } from './messages.ts';

export interface ContextMenuState {
  /** Viewport coordinates of the click. */
  x: number;
  y: number;
  vehicleId: number;
  /** Where the click was on the map (display CRS); the list has none. */
  lngLat?: [number, number];
}

/** The command entries (after the caller's own entries): shared by the right-click menu and the card's menu. */
export function VehicleCommandItems({ online, onCommand }: { online: boolean | undefined; onCommand: (kind: VehicleCommand) => void }) {
  const t = useT(MONITOR_NS);
  const entries = menuEntries(useAccess(), online);
  return (
    <>
      {entries.length > 0 && <Menu.Divider />}
      {online === false && entries.some((e) => e.disabled) && (
        <Menu.Label c="orange" data-testid="menu-offline-reason" style={{ whiteSpace: 'normal', maxWidth: 220 }}>
          {t('menu.offline')}
        </Menu.Label>
      )}
      {entries.map((e) => (
        <Menu.Item key={e.kind} disabled={e.disabled} onClick={() => onCommand(e.kind)} data-testid={`menu-${e.kind}`} data-disabled-reason={e.disabled ? 'offline' : undefined}>
          {t(`menu.${e.kind}`)}
        </Menu.Item>
      ))}
      <Menu.Divider />
      {NOT_BUILT.map((k) => (
        <Menu.Item key={k} disabled data-testid={`menu-later-${k}`} rightSection={t('menu.notBuilt')}>
          {t(`menu.later.${k}`)}
        </Menu.Item>
      ))}
    </>
  );
}

export interface ContextMenuProps {
  menu: ContextMenuState;
  monitored: boolean;
  online: boolean | undefined;
  onClose: () => void;
  onDetails: () => void;
  onFollow: () => void;
  onMonitor: () => void;
  /** Absent when there is no position to copy. */
  onCopy?: () => void;
  onCommand: (kind: VehicleCommand) => void;
}

export function VehicleContextMenu({ menu, monitored, online, onClose, onDetails, onFollow, onMonitor, onCopy, onCommand }: ContextMenuProps) {
  const t = useT(MONITOR_NS);
  return (
    <Perm route={MENU_AREA} button={MENU_BUTTON}>
      {/* Fixed at the click in the viewport: the same menu opens over the map and over the list. */}
      <Portal>
        <div style={{ position: 'fixed', left: menu.x, top: menu.y, zIndex: LAYERS.popover }} data-testid="vehicle-menu" data-vehicle-id={menu.vehicleId}>
          <Menu opened onClose={onClose} position="bottom-start" withinPortal={false} shadow="md">
            <Menu.Target>
              <div style={{ width: 1, height: 1 }} />
            </Menu.Target>
            <Menu.Dropdown mah="80vh" style={{ overflowY: 'auto' }}>
              <Menu.Item onClick={onDetails} data-testid="menu-details">{t('menu.details')}</Menu.Item>
              <Menu.Item onClick={onFollow}>{t('menu.follow')}</Menu.Item>
              <Menu.Item onClick={onMonitor}>{monitored ? t('menu.unmonitor') : t('menu.monitor')}</Menu.Item>
              {onCopy && <Menu.Item onClick={onCopy}>{t('menu.copyPosition')}</Menu.Item>}
              <VehicleCommandItems online={online} onCommand={onCommand} />
            </Menu.Dropdown>
          </Menu>
        </div>
      </Portal>
    </Perm>
  );
}

/** The info card's menu button: the same commands as the right-click menu. */
export function VehicleMenuButton({ online, onCommand }: { online: boolean | undefined; onCommand: (kind: VehicleCommand) => void }) {
  const t = useT(MONITOR_NS);
  return (
    <Perm route={MENU_AREA} button={MENU_BUTTON}>
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <Button size="xs" variant="light" data-testid="details-menu">
            {t('menu.commands')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown mah="70vh" style={{ overflowY: 'auto' }}>
          <VehicleCommandItems online={online} onCommand={onCommand} />
        </Menu.Dropdown>
      </Menu>
    </Perm>
  );
}
