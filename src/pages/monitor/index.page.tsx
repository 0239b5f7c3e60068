import { MonitorPage } from '../../features/monitor/MonitorPage.tsx';

export default MonitorPage;
