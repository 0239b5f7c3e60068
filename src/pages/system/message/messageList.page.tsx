import { MyNoticesPage } from '../../../features/notices/MyNoticesPage.tsx';

export default MyNoticesPage;
