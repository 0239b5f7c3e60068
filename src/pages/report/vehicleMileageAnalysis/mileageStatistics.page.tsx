import { MileageStatisticsPage } from '../../../features/reports/operation/pages.tsx';

export default MileageStatisticsPage;
