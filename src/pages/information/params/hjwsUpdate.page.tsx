import { PackagesPage } from '../../../features/terminal-upgrade/PackagesPage.tsx';

export default function HjwsUpdatePage() {
  return <PackagesPage />;
}
