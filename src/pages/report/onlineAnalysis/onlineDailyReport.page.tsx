import { OnlineDailyReportPage } from '../../../features/reports/device-work/pages.tsx';

export default OnlineDailyReportPage;
