import { OilChartPage } from '../../../features/reports/fuel/pages.tsx';

export default OilChartPage;
