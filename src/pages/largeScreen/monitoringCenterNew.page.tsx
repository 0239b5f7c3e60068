/** /largeScreen/monitoringCenterNew — a preset of the one wall framework (src/features/walls/CONTEXT.md). */
import { WallPage } from '../../features/walls/WallPage.tsx';

export default function Page() {
  return <WallPage wall="monitoringCenterNew" />;
}
