import { DeviceLogPage } from '../../features/comm-log/DeviceLogPage.tsx';

export default function DeviceLog() {
  return <DeviceLogPage />;
}
