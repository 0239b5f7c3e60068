import { OilAddDetailsPage } from '../../../features/reports/fuel/pages.tsx';

export default OilAddDetailsPage;
