import { DeviceSamplePage } from '../../../features/face-recognition/DeviceSamplePage.tsx';

export default DeviceSamplePage;
