import { MorningOperationDailyPage } from '../../../features/reports/device-work/pages.tsx';

export default MorningOperationDailyPage;
