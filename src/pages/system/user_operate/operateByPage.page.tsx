import { AuditPage } from '../../../features/audit/AuditPage.tsx';

export default function OperateByPagePage() {
  return <AuditPage mode="page" />;
}
