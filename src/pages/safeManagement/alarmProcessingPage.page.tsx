import { AlarmProcessingPage } from '../../features/alarms/AlarmProcessingPage.tsx';

export default AlarmProcessingPage;
