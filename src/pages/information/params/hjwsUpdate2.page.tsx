import { PushPage } from '../../../features/terminal-upgrade/PushPage.tsx';

export default function HjwsUpdate2Page() {
  return <PushPage />;
}
