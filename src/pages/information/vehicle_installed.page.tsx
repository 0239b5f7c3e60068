import { InstallationsPage } from '../../features/installations/InstallationsPage.tsx';

export default InstallationsPage;
