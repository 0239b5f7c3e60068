import { DeviceOnlineReportPage } from '../../../features/reports/device-work/pages.tsx';

export default DeviceOnlineReportPage;
