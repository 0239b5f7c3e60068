import { DeviceAbnormalStatisticsPage } from '../../../features/reports/device-work/pages.tsx';

export default DeviceAbnormalStatisticsPage;
