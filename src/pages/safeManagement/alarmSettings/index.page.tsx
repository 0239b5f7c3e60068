import { AlarmSettingsPage } from '../../../features/alarm-settings/AlarmSettingsPage.tsx';

export default AlarmSettingsPage;
