import { VideoMonitorPage } from '../../features/video/VideoMonitorPage.tsx';

export default VideoMonitorPage;
