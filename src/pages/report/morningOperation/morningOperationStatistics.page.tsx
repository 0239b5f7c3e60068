import { MorningOperationStatisticsPage } from '../../../features/reports/device-work/pages.tsx';

export default MorningOperationStatisticsPage;
