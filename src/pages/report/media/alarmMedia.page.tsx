import { MediaReportPage } from '../../../features/media-reports/MediaReportPage.tsx';

export default function AlarmMediaPage() {
  return <MediaReportPage kind="alarm" />;
}
