import { OperatorLogPage } from '../../../features/operator-log/OperatorLogPage.tsx';

export default function DeviceLogPage() {
  return <OperatorLogPage kind="device" />;
}
