import { DeviceAbnormalReportPage } from '../../../features/reports/device-work/pages.tsx';

export default DeviceAbnormalReportPage;
