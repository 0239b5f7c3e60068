/**
 * The handling action and note of a handling (the pop-up's and the page's confirm, the batch form):
 * one place for the action list and the note's 500-character limit (the server's `Text(500)`).
 */
import { Select, Textarea } from '@mantine/core';
import { DEAL_TYPES } from '../../../domain/alarms/engine.ts';
import { useT } from '../../i18n/index.ts';
import { ALARMS_NS } from './messages.ts';

export interface DealValue {
  /** DealType as the select's string. */
  dealType: string;
  content: string;
}

export function DealFields({ value, onChange, testIds }: { value: DealValue; onChange: (v: DealValue) => void; testIds?: { action?: string; content?: string } }) {
  const t = useT(ALARMS_NS);
  return (
    <>
      <Select
        label={t('handle.action')}
        data={DEAL_TYPES.map((d) => ({ value: String(d), label: t(`dealType.${d}`) }))}
        value={value.dealType}
        onChange={(v) => v && onChange({ ...value, dealType: v })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        data-testid={testIds?.action}
      />
      <Textarea
        label={t('handle.content')}
        value={value.content}
        onChange={(e) => onChange({ ...value, content: e.currentTarget.value })}
        maxLength={500}
        data-testid={testIds?.content}
      />
    </>
  );
}
