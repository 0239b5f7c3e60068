import { MileageDailyPage } from '../../../features/reports/operation/pages.tsx';

export default MileageDailyPage;
