/** Providers: Mantine (theme colour from the theme store), modals, notifications, i18n, TanStack Query, router. */
import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n/index.ts';
import { colorSchemeOf, PRIMARY_COLOR, useThemeName } from '../shell/theme.ts';
import { createQueryClient } from '../kit/query.ts';
import { registerAuditSection, registerAuditTrail } from '../kit/audit.tsx';
import { RowCallsSection } from '../features/audit/RowCalls.tsx';
import { RecordTrailButton } from '../features/operator-log/RecordTrail.tsx';
import { router } from './router.tsx';
import { BESIDE_DOCK, LAYERS } from '../shell/layers.ts';

// Issue 15: the machine-affairs lists' rows show their operator-log trail (the kit's audit slot).
registerAuditTrail(RecordTrailButton);
// Issue 19: the row's trail also lists the audited calls that named the row (for readers of the audit trail).
registerAuditSection('calls', RowCallsSection);

/** Server state of every screen (src/kit/query.ts: retries only for network failures). */
const queryClient = createQueryClient();

/** Spec §9: UI size small, z-index 3000 for overlays, toasts 2000 ms. */
export function App() {
  const name = useThemeName();
  const theme = useMemo(
    () =>
      createTheme({
        primaryColor: PRIMARY_COLOR[name],
        fontFamily: '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
        components: {
          Button: { defaultProps: { size: 'sm' } },
          TextInput: { defaultProps: { size: 'sm' } },
          // Drawers and dialogs open beside the docked alarm pop-up, not over it (src/shell/layers.ts).
          Drawer: { styles: BESIDE_DOCK },
          Modal: { styles: BESIDE_DOCK },
        },
      }),
    [name],
  );
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light" forceColorScheme={colorSchemeOf(name)}>
        <ModalsProvider>
          <Notifications zIndex={LAYERS.notification} autoClose={2000} position="top-center" />
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </ModalsProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
