import { OilSummaryPage } from '../../../features/reports/fuel/pages.tsx';

export default OilSummaryPage;
