import { ContrastPage } from '../../../features/alarm-stats/ContrastPage.tsx';

export default ContrastPage;
