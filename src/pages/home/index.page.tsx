import { DashboardPage } from '../../features/dashboard/DashboardPage.tsx';

export default DashboardPage;
