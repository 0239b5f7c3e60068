import { CheckReportPage } from '../../../features/appraisal/CheckReportPage.tsx';

export default CheckReportPage;
