import { useState, type ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { KIT_NS } from './messages.ts';
import { PageFrame } from './PageFrame.tsx';

/** The declaration of a report screen's frame: what differs between report pages, nothing else. */
export interface ReportFrameProps {
  /** `data-page` of the screen's root (tests and layout checks find the screen by it). */
  pageId: string;
  /** `data-testid` of the root, for screens whose tests already find them by one. */
  testId?: string;
  title: ReactNode;
  /** Right of the title (e.g. which company or vehicles the report covers). */
  header?: ReactNode;
  /** A left-hand panel (the company tree). */
  aside?: ReactNode;
  /** The query's inputs (period, month, plate…), in one line with 查询 and 导出. */
  filters: ReactNode;
  /** 查询 (the form's submit): the screen checks its inputs and applies them. */
  onSearch: () => void;
  /** 查询 greyed out (e.g. while the period is refused). */
  searchDisabled?: boolean;
  searchLabel?: string;
  /** 导出: busy while the file is prepared; failures are shown by the request client, so they are swallowed here. */
  onExport?: () => Promise<unknown>;
  exportDisabled?: boolean;
  exportLabel?: string;
  /**
   * The inputs show their errors under themselves (a labelled month field): the buttons line up with
   * the inputs' top instead of the form's bottom, so an error line does not push them down. @default false
   */
  errorsUnderInputs?: boolean;
  /** More on the form's line after 导出 (e.g. the picked vehicle). */
  extra?: ReactNode;
  /** Why the query is refused, in the UI language (role=alert under the form). */
  problem?: string | null;
  /** The report: tables (RowsTable), charts, figures. */
  children: ReactNode;
  /** A dimmed note under the report (how the figures are counted). */
  note?: ReactNode;
}

/**
 * The frame every report page repeats: optional company tree on the left, the title, one form line
 * (the screen's inputs, 查询, 导出), the query's problem, the report, a note. The screen keeps its
 * own query state and tables; the frame only lays them out the same way everywhere.
 */
export function ReportPage(props: ReportFrameProps) {
  const t = useT(KIT_NS);
  const [exporting, setExporting] = useState(false);
  const runExport = () => {
    if (!props.onExport) return;
    setExporting(true);
    props
      .onExport()
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  // A label above an input takes 25 px: aligned to the top, the buttons sit on the inputs' line.
  const mt = props.errorsUnderInputs ? 25 : undefined;

  return (
    <PageFrame pageId={props.pageId} testId={props.testId} aside={props.aside} title={props.title} header={props.header}>
      <Group
        gap="xs"
        wrap="wrap"
        align={props.errorsUnderInputs ? 'flex-start' : 'flex-end'}
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch();
        }}
      >
        {props.filters}
        <Button size="sm" type="submit" mt={mt} disabled={props.searchDisabled} data-testid="search">
          {props.searchLabel ?? t('search')}
        </Button>
        {props.onExport && (
          <Button size="sm" variant="default" mt={mt} loading={exporting} disabled={props.exportDisabled} onClick={runExport} data-testid="export">
            {props.exportLabel ?? t('export')}
          </Button>
        )}
        {props.extra}
      </Group>
      {props.problem != null && (
        <Text size="sm" c="red" role="alert" data-testid="report-problem">
          {props.problem}
        </Text>
      )}
      {props.children}
      {props.note !== undefined && (
        <Text size="xs" c="dimmed">
          {props.note}
        </Text>
      )}
    </PageFrame>
  );
}
