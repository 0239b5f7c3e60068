import { AudioResourcesPage } from '../../../features/voice/AudioResourcesPage.tsx';

export default function AudioPage() {
  return <AudioResourcesPage />;
}
