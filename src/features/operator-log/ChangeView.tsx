import { Fragment } from 'react';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { CHANGE_OPERATIONS, changeLines, changeLineText, operationName, type ChangeLine } from '../../../domain/fleet/change-fields.ts';
import { useLang, useT } from '../../i18n/index.ts';
import type { LogRow } from './api.ts';
import { OPERATOR_LOG_NS } from './messages.ts';
import { logTime } from './time.ts';

const OPERATION_COLOR: Record<string, string> = {
  create: 'green', import: 'teal', update: 'blue', delete: 'red', move: 'grape', bind: 'cyan', unbind: 'orange', replace: 'indigo', register: 'gray',
};

/** The operation as a coloured badge in the UI language. */
export function OperationBadge({ operation }: { operation: string }) {
  const lang = useLang();
  const known = (CHANGE_OPERATIONS as readonly string[]).includes(operation);
  return (
    <Badge size="sm" variant="light" color={OPERATION_COLOR[operation] ?? 'gray'} data-operation={operation}>
      {known ? operationName(operation, lang) : operation}
    </Badge>
  );
}

/** Who did what when, from where: the operation badge, the time, the operator (else 系统), the address. */
export function LogHeadline({ row }: { row: LogRow }) {
  const t = useT(OPERATOR_LOG_NS);
  return (
    <Group gap="xs">
      <OperationBadge operation={row.operation} />
      <Text size="sm">{logTime(row.time)}</Text>
      <Text size="sm">{row.userName || t('system')}</Text>
      <Text size="xs" c="dimmed">{row.ip}</Text>
    </Group>
  );
}

/** The row's changed fields in the UI language. */
export function useChangeLines(row: LogRow): ChangeLine[] {
  const lang = useLang();
  return changeLines(row.before, row.after, lang, row.names);
}

/** The first `max` changes as "字段: 旧 → 新" lines (a list cell), then how many more the details hold. */
export function ChangeSummary({ row, max = 3 }: { row: LogRow; max?: number }) {
  const t = useT(OPERATOR_LOG_NS);
  const lines = useChangeLines(row);
  if (lines.length === 0) return <Text size="xs" c="dimmed">{t('noFields')}</Text>;
  return (
    <Stack gap={0} data-testid="log-changes">
      {lines.slice(0, max).map((l) => (
        <Text key={l.key} size="xs" lineClamp={2} data-field={l.key}>
          {changeLineText(l)}
        </Text>
      ))}
      {lines.length > max && <Text size="xs" c="dimmed">{t('moreFields', { count: lines.length - max })}</Text>}
    </Stack>
  );
}

/** Every logged field of a row, before and after side by side (a create has no before, a delete no after). */
export function ChangeFields({ row }: { row: LogRow }) {
  const t = useT(OPERATOR_LOG_NS);
  const lines = useChangeLines(row);
  if (lines.length === 0) return <Text size="sm" c="dimmed">{t('noFields')}</Text>;
  const showBefore = row.before !== null;
  const showAfter = row.after !== null;
  const cols = 1 + (showBefore ? 1 : 0) + (showAfter ? 1 : 0);
  return (
    <SimpleGrid cols={cols} spacing="xs" verticalSpacing={4} data-testid="log-fields">
      <Text size="xs" fw={600} c="dimmed">{t('field')}</Text>
      {showBefore && <Text size="xs" fw={600} c="dimmed">{t('before')}</Text>}
      {showAfter && <Text size="xs" fw={600} c="dimmed">{t('after')}</Text>}
      {lines.map((l) => (
        <Fragment key={l.key}>
          <Text size="sm" data-field={l.key}>{l.field}</Text>
          {showBefore && <Text size="sm" c={showAfter ? 'dimmed' : undefined} style={{ wordBreak: 'break-word' }}>{l.before}</Text>}
          {showAfter && <Text size="sm" fw={showBefore ? 500 : undefined} style={{ wordBreak: 'break-word' }}>{l.after}</Text>}
        </Fragment>
      ))}
    </SimpleGrid>
  );
}
