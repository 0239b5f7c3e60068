/**
 * 语音下发日志 (/operation/messageManagement/batchTtsLog, issue 19): every dispatch of the selected company
 * (text, types, sender, time, validity, counts per state); a row opens its per-vehicle state
 * (VoiceTaskView, with 撤销 for waiting vehicles behind bit 557).
 */
import { Badge, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { LOG_ROUTE, VOICE_STATES, voiceApi, type VoiceTask } from './api.ts';
import { VOICE_RES_NS } from './messages.ts';
import { STATE_COLOR, VoiceTaskView } from './VoiceTaskView.tsx';

export function BatchTtsLogPage() {
  const t = useT(VOICE_RES_NS);
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(LOG_ROUTE);
  const [open, setOpen] = useState<number | null>(null);
  const columns: KitColumn<VoiceTask>[] = [
    { key: 'id', title: '#', minWidth: 60, maxWidth: 80, render: (r) => r.id },
    { key: 'text', title: t('text'), minWidth: 200, maxWidth: 480, render: (r) => <Text size="sm" lineClamp={2}>{r.text}</Text> },
    { key: 'types', title: t('types'), minWidth: 140, maxWidth: 260, render: (r) => r.types.map((d) => t(`type.${d}`)).join('、') },
    { key: 'counts', title: t('progress'), minWidth: 200, maxWidth: 360, render: (r) => (
      <Group gap={4}>{VOICE_STATES.filter((s) => (r.counts[s] ?? 0) > 0).map((s) => <Badge key={s} size="sm" variant="light" color={STATE_COLOR[s]}>{t(`states.${s}`)} {r.counts[s]}</Badge>)}</Group>
    ) },
    { key: 'createdByName', title: t('sender'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'createTime', title: t('sendTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.createTime) },
    { key: 'expireTime', title: t('expireTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.expireTime) },
  ];
  return (
    <ListPage<VoiceTask>
      route={LOG_ROUTE}
      pageId="operation-batch-tts-log"
      title={t('logTitle')}
      tree={{}}
      searchPlaceholder={t('textSearchLog')}
      fetchPage={(q) => voiceApi.tasks({ current: q.current, size: q.size, keyword: q.keyword || undefined })}
      scope={{ companyId }}
      columns={columns}
      refreshMs={5000}
      rowActions={(r) => <Button size="compact-xs" variant="light" onClick={() => setOpen(r.id)} data-testid={`voice-log-view-${r.id}`}>{t('view')}</Button>}
    >
      <Modal opened={open !== null} onClose={() => setOpen(null)} size="xl" title={open !== null ? t('task', { id: open }) : ''}>
        {open !== null && <VoiceTaskView taskId={open} onChanged={() => void invalidate()} />}
      </Modal>
    </ListPage>
  );
}
