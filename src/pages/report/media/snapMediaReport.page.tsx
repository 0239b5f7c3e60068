import { MediaReportPage } from '../../../features/media-reports/MediaReportPage.tsx';

export default function SnapMediaReportPage() {
  return <MediaReportPage kind="snap" />;
}
