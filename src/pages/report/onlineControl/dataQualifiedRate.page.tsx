import { DataQualifiedRatePage } from '../../../features/reports/online-control/pages.tsx';

export default DataQualifiedRatePage;
