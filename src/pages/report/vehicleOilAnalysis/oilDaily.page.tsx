import { OilDailyPage } from '../../../features/reports/fuel/pages.tsx';

export default OilDailyPage;
