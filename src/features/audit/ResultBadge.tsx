/**
 * An audit row's outcome as a coloured badge. Its own file: the row trail (RowCalls.tsx, in the main bundle
 * through the kit's audit slot) uses it, and importing it from AuditPage.tsx pulled the whole audit screen
 * (ListPage, period picker) into the main bundle instead of its lazy page chunk.
 */
import { Badge } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { AuditResult } from './api.ts';
import { AUDIT_NS } from './messages.ts';

const RESULT_COLORS: Record<AuditResult, string> = { ok: 'green', refused: 'red', invalid: 'orange', error: 'gray' };

export function ResultBadge({ result }: { result: AuditResult }) {
  const t = useT(AUDIT_NS);
  return <Badge size="sm" variant="light" color={RESULT_COLORS[result]} data-result={result}>{t(`result_${result}`)}</Badge>;
}
