import { QueryClient } from '@tanstack/react-query';
import { createStore } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import { errorStatus } from '../api';

/** Server data stays fresh for 5 minutes unless a query says otherwise (spec §7). */
const DEFAULT_STALE_TIME_MS = 5 * 60_000;

/** The one QueryClient of the app; query atoms reach it through `queryClientAtom`. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: DEFAULT_STALE_TIME_MS,
      // A 4xx will answer the same again; network trouble and 5xx get two more tries.
      retry: (failures, error) => {
        const status = errorStatus(error);
        return failures < 2 && !(status !== undefined && status >= 400 && status < 500);
      },
    },
    mutations: {
      // A money action runs at the tap or fails at once: TanStack's default ('online') would pause it
      // while offline and run it by itself when the connection returns, behind the player's back.
      networkMode: 'always',
      retry: false,
    },
  },
});

/** The one jotai store; code outside React reads and writes atoms through it. */
export const store = createStore();
store.set(queryClientAtom, queryClient);
