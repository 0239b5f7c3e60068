import { OpsCheckReportPage } from '../../../features/ops-check/OpsCheckReportPage.tsx';

export default function OpsCheckReport() {
  return <OpsCheckReportPage />;
}
