/**
 * Follows this user's unread notice count on the session's one push connection (push `noticeUnread`,
 * issue 19): every change refetches what the bell and "my notices" show; a (re)opened socket too, since
 * a change may have been missed while it was down. No second socket: a handle on the shared stream.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { MY_NOTICES_KEY } from './api.ts';

export function useNoticePush(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const stream = acquireLiveStream();
    const off = stream.onNoticeUnread?.((msg) => {
      if (msg) client.setQueryData<{ unread: number; records: unknown[] }>([MY_NOTICES_KEY, 'latest'], (old) => (old ? { ...old, unread: msg.unread } : old));
      void client.invalidateQueries({ queryKey: [MY_NOTICES_KEY] });
    });
    return () => {
      off?.();
      stream.dispose();
    };
  }, [client, enabled]);
}
