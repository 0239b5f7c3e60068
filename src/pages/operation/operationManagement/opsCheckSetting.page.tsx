import { OpsCheckSettingPage } from '../../../features/ops-check/OpsCheckSettingPage.tsx';

export default function OpsCheckSetting() {
  return <OpsCheckSettingPage />;
}
