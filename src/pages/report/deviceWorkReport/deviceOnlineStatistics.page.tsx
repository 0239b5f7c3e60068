import { DeviceOnlineStatisticsPage } from '../../../features/reports/device-work/pages.tsx';

export default DeviceOnlineStatisticsPage;
