import { FencesPage } from '../../features/fences/FencesPage.tsx';

export default function ShapeMapPage() {
  return <FencesPage />;
}
