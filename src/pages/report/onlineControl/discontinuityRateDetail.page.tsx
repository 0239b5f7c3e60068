import { DiscontinuityRateDetailPage } from '../../../features/reports/online-control/pages.tsx';

export default DiscontinuityRateDetailPage;
