/**
 * The map's right-click menu on a vehicle (spec §2 /global rightMenu): shown only to users holding
 * the menu808 button of /global/rightMenu.
 */
import { Menu } from '@mantine/core';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { MONITOR_NS } from './messages.ts';

export interface ContextMenuState {
  x: number;
  y: number;
  vehicleId: number;
  lngLat: [number, number];
}

export interface ContextMenuProps {
  menu: ContextMenuState;
  monitored: boolean;
  onClose: () => void;
  onDetails: () => void;
  onFollow: () => void;
  onMonitor: () => void;
  onCopy: () => void;
}

export function VehicleContextMenu({ menu, monitored, onClose, onDetails, onFollow, onMonitor, onCopy }: ContextMenuProps) {
  const t = useT(MONITOR_NS);
  return (
    <Perm route="/global/rightMenu" button="menu808">
      <div style={{ position: 'absolute', left: menu.x, top: menu.y, zIndex: 3 }} data-testid="vehicle-menu">
        <Menu opened onClose={onClose} position="bottom-start" withinPortal={false}>
          <Menu.Target>
            <div style={{ width: 1, height: 1 }} />
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={onDetails}>{t('menu.details')}</Menu.Item>
            <Menu.Item onClick={onFollow}>{t('menu.follow')}</Menu.Item>
            <Menu.Item onClick={onMonitor}>{monitored ? t('menu.unmonitor') : t('menu.monitor')}</Menu.Item>
            <Menu.Item onClick={onCopy}>{t('menu.copyPosition')}</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </div>
    </Perm>
  );
}
