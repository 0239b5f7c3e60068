import type { ReactNode } from 'react';
import { Group, Paper, Stack, Title } from '@mantine/core';

/**
 * The frame of a kit screen (list and report pages alike): an optional left-hand panel (the company
 * tree), then the title line and the screen's body filling the rest; dialogs of the screen after it.
 */
export function PageFrame({
  pageId,
  testId,
  aside,
  title,
  header,
  children,
  dialogs,
}: {
  /** `data-page` of the root (tests and layout checks find the screen by it). */
  pageId: string;
  /** `data-testid` of the root, for screens whose tests already find them by one. */
  testId?: string | undefined;
  aside?: ReactNode;
  title: ReactNode;
  /** Right of the title. */
  header?: ReactNode;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  return (
    <Group align="stretch" wrap="nowrap" gap="md" h="100%" p="md" style={{ minHeight: 480 }} data-page={pageId} data-testid={testId}>
      {aside !== undefined && aside !== null && aside !== false && (
        <Paper withBorder p="xs" w={280} style={{ flex: 'none', display: 'flex', flexDirection: 'column' }}>
          {aside}
        </Paper>
      )}
      <Stack gap="sm" style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={4}>{title}</Title>
          {header}
        </Group>
        {children}
      </Stack>
      {dialogs}
    </Group>
  );
}
