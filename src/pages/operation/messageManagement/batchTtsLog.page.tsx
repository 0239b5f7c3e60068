import { BatchTtsLogPage } from '../../../features/voice/BatchTtsLogPage.tsx';

export default function BatchTtsLog() {
  return <BatchTtsLogPage />;
}
