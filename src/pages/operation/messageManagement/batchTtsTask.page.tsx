import { BatchTtsTaskPage } from '../../../features/voice/BatchTtsTaskPage.tsx';

export default function BatchTtsTask() {
  return <BatchTtsTaskPage />;
}
