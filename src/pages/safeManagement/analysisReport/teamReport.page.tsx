import { TeamReportPage } from '../../../features/analysis-report/TeamReportPage.tsx';

export default TeamReportPage;
