import { UserPage } from '../../features/system/UserPage.tsx';

export default UserPage;
