/** The push channel's state, from the stream worker's status messages. */
import { Badge } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { Connection } from './live-source.ts';
import { MONITOR_NS } from './messages.ts';

const COLOR: Record<Connection, string> = { connecting: 'yellow', open: 'green', closed: 'red', reconnecting: 'orange' };

export function ConnectionBadge({ connection, attempt }: { connection: Connection; attempt: number }) {
  const t = useT(MONITOR_NS);
  return (
    <Badge color={COLOR[connection]} variant="light" data-testid="connection" data-state={connection}>
      {t(`connection.${connection}`, { attempt })}
    </Badge>
  );
}
