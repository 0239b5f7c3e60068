import { OperatorLogPage } from '../../../features/operator-log/OperatorLogPage.tsx';

export default function VehicleLogPage() {
  return <OperatorLogPage kind="vehicle" />;
}
