/** /safeManagement/alarmSettings/index — per alarm type: enabled and auto-handle, singly or in batch. */
import { setAutoHandle, setEnabled } from './api.ts';
import { PerCompany } from './shared.tsx';
import { SwitchSettingsTable, type SwitchColumn } from './SwitchSettingsTable.tsx';

const COLUMNS: readonly SwitchColumn[] = [
  { field: 'enabled', apply: setEnabled },
  { field: 'autoHandle', apply: setAutoHandle },
];

export function AlarmSettingsPage() {
  return (
    <PerCompany>
      <SwitchSettingsTable columns={COLUMNS} title="settings" testid="alarm-settings-page" />
    </PerCompany>
  );
}
