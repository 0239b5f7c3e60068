import { AlarmLinkagePage } from '../../../features/alarm-settings/AlarmLinkagePage.tsx';

export default AlarmLinkagePage;
