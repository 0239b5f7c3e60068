import { RolePage } from '../../features/system/RolePage.tsx';

export default RolePage;
