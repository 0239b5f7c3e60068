import { CheckSettingPage } from '../../../features/appraisal/CheckSettingPage.tsx';

export default CheckSettingPage;
