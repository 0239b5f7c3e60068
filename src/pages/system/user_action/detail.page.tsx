import { PageVisitsPage } from '../../../features/audit/UsagePages.tsx';

export default PageVisitsPage;
