import { DeviceStorageAbnormalPage } from '../../../features/reports/device-work/pages.tsx';

export default DeviceStorageAbnormalPage;
