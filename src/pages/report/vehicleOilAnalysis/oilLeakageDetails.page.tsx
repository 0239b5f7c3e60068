import { OilLeakageDetailsPage } from '../../../features/reports/fuel/pages.tsx';

export default OilLeakageDetailsPage;
