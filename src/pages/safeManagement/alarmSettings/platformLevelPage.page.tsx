import { PlatformLevelPage } from '../../../features/alarm-settings/PlatformLevelPage.tsx';

export default PlatformLevelPage;
