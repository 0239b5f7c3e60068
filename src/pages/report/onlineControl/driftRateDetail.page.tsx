import { DriftRateDetailPage } from '../../../features/reports/online-control/pages.tsx';

export default DriftRateDetailPage;
