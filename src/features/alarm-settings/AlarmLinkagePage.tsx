/** /safeManagement/alarmSettings/alarmLinkagePage — per alarm type: pop-up, voice and TTS linkage. */
import { setLinkage } from './api.ts';
import { PerCompany } from './shared.tsx';
import { SwitchSettingsTable, type SwitchColumn } from './SwitchSettingsTable.tsx';

const COLUMNS: readonly SwitchColumn[] = [
  { field: 'popup', apply: (types, popup) => setLinkage(types, { popup }) },
  { field: 'voice', apply: (types, voice) => setLinkage(types, { voice }) },
  { field: 'tts', apply: (types, tts) => setLinkage(types, { tts }) },
];

export function AlarmLinkagePage() {
  return (
    <PerCompany>
      <SwitchSettingsTable columns={COLUMNS} title="linkage" testid="alarm-linkage-page" />
    </PerCompany>
  );
}
