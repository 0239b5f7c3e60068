import { AppPushPage } from '../../../features/app-feedback/AppPushPage.tsx';

export default AppPushPage;
