import { OnlineRateReportPage } from '../../../features/reports/device-work/pages.tsx';

export default OnlineRateReportPage;
