import { CabSupervisionPage } from '../../features/cab-supervision/CabSupervisionPage.tsx';

export default function CabSupervision() {
  return <CabSupervisionPage />;
}
