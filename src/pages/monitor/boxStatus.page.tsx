import { BoxStatusPage } from '../../features/box-status/BoxStatusPage.tsx';

export default BoxStatusPage;
