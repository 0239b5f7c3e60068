import { OnlineDurationPage } from '../../../features/audit/UsagePages.tsx';

export default OnlineDurationPage;
