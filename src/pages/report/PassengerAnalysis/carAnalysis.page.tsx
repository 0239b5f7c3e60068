import { CarAnalysisPage } from '../../../features/reports/passengers/pages.tsx';

export default CarAnalysisPage;
