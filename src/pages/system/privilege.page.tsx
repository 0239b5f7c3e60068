import { PrivilegePage } from '../../features/system/PrivilegePage.tsx';

export default PrivilegePage;
