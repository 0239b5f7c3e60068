import { NoticeManagePage } from '../../../features/notices/NoticeManagePage.tsx';

export default NoticeManagePage;
