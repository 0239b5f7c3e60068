import { VehicleReportPage } from '../../../features/analysis-report/VehicleReportPage.tsx';

export default VehicleReportPage;
