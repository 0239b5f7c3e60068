import { AuditPage } from '../../../features/audit/AuditPage.tsx';

export default function OperateByDevicePage() {
  return <AuditPage mode="device" />;
}
