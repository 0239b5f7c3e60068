import { TemperatureReportPage } from '../../features/reports/passengers/pages.tsx';

export default TemperatureReportPage;
