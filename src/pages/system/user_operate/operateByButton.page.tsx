import { AuditPage } from '../../../features/audit/AuditPage.tsx';

export default function OperateByButtonPage() {
  return <AuditPage mode="button" />;
}
