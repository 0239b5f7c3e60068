import { MessageLogPage } from '../../features/comm-log/MessageLogPage.tsx';

export default function MessageLog() {
  return <MessageLogPage />;
}
