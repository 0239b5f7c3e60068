import { DeviceTypePage } from '../../features/device-types/DeviceTypePage.tsx';

export default DeviceTypePage;
