import { PublicityPage } from '../../../features/accidents/PublicityPage.tsx';

export default function AccidentPublicity() {
  return <PublicityPage />;
}
