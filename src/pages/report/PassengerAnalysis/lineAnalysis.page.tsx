import { LineAnalysisPage } from '../../../features/reports/passengers/pages.tsx';

export default LineAnalysisPage;
