import { DevicePage } from '../../features/devices/DevicePage.tsx';

export default DevicePage;
