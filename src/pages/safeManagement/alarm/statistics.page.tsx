import { StatisticsPage } from '../../../features/alarm-stats/StatisticsPage.tsx';

export default StatisticsPage;
