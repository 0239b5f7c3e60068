import { NightStatisticPage } from '../../../features/reports/operation/pages.tsx';

export default NightStatisticPage;
