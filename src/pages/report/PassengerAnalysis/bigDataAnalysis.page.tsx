import { BigDataAnalysisPage } from '../../../features/reports/passengers/pages.tsx';

export default BigDataAnalysisPage;
