import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { queryClient, store } from '../state/store';

/**
 * One jotai store, one QueryClient (the same one query atoms use), translations. The client's provider
 * mounts it (refetch on focus and on reconnect); screens reach it through atoms, never its hooks.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
