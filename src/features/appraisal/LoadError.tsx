/** A report's load failure with a retry, and the failure's text; shared by appraisal and analysis pages. */
import { Alert, Button, Group, Text } from '@mantine/core';
import { isApiError } from '../../api/http.ts';

export const errorText = (e: unknown) => (isApiError(e) ? e.msg : e instanceof Error ? e.message : String(e));

export function LoadError({ text, retryLabel, onRetry }: { text: string; retryLabel: string; onRetry(): void }) {
  return (
    <Alert color="red" data-testid="report-error">
      <Group justify="space-between">
        <Text size="sm">{text}</Text>
        <Button size="xs" variant="light" onClick={onRetry}>{retryLabel}</Button>
      </Group>
    </Alert>
  );
}
