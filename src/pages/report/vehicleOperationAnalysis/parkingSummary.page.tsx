import { ParkingSummaryPage } from '../../../features/reports/operation/pages.tsx';

export default ParkingSummaryPage;
