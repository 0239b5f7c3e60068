import { ParkingReportPage } from '../../../features/reports/operation/pages.tsx';

export default ParkingReportPage;
