import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorStatus, retryAfterSeconds } from '../../api';
import { useOnline } from '../online';
import './query-state.css';

/** What a query atom gives: the fields the states need. */
export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** test ids are `<testId>-loading`, `-empty`, `-error`, `-offline` */
  testId: string;
  /** what shows while the first answer is awaited (a spinner by default) */
  loading?: ReactNode;
  /** whether the data counts as empty (then `empty` shows) */
  isEmpty?: (data: T) => boolean;
  /** the empty state; required with `isEmpty` */
  empty?: ReactNode;
  /** the error state's title (translated); a generic one by default */
  errorTitle?: string;
  /** a smaller box for a section of a screen */
  compact?: boolean;
  children: (data: T) => ReactNode;
}

/**
 * The one way a screen shows a server query: loading, empty, error (with a Retry that refetches; a 429 says
 * when to try again) and offline (no answer without a connection; with saved data, a note above it), else
 * the data. Each state is its own element, so a failure never looks like an empty list.
 */
export function QueryState<T>({
  query,
  testId,
  loading,
  isEmpty,
  empty,
  errorTitle,
  compact,
  children,
}: QueryStateProps<T>) {
  const { t } = useTranslation();
  const online = useOnline();
  const { data } = query;

  if (data === undefined) {
    if (!online) return <QueryProblem state="offline" testId={testId} query={query} compact={compact} />;
    if (query.isError) {
      return (
        <QueryProblem state="error" testId={testId} query={query} compact={compact} title={errorTitle} />
      );
    }
    if (query.isPending) {
      return (
        loading ?? (
          <div
            className={`query-state${compact ? ' query-state--compact' : ''}`}
            data-testid={`${testId}-loading`}
            data-state="loading"
            role="status"
            aria-label={t('app.loading')}
          >
            <span className="query-state__spinner" aria-hidden="true" />
          </div>
        )
      );
    }
    return null;
  }

  const body = isEmpty?.(data) ? (
    <div data-testid={`${testId}-empty`} data-state="empty">
      {empty}
    </div>
  ) : (
    children(data)
  );
  if (online) return body;
  return (
    <>
      <p className="query-state__note" data-testid={`${testId}-offline`} data-state="offline" role="status">
        {t('query.offlineSaved')}
      </p>
      {body}
    </>
  );
}

/** The error or offline box: what happened, and Retry. */
function QueryProblem<T>({
  state,
  testId,
  query,
  compact,
  title,
}: {
  state: 'error' | 'offline';
  testId: string;
  query: QueryLike<T>;
  compact?: boolean;
  title?: string;
}) {
  const { t } = useTranslation();
  let heading: string;
  let text: string;
  if (state === 'offline') {
    heading = t('query.offlineTitle');
    text = t('query.offlineText');
  } else if (errorStatus(query.error) === 429) {
    const seconds = retryAfterSeconds(query.error);
    heading = title ?? t('query.errorTitle');
    text =
      seconds === undefined
        ? t('common.rateLimitedSoon')
        : t('common.rateLimited', { seconds: Math.max(1, seconds) });
  } else {
    heading = title ?? t('query.errorTitle');
    text = t('query.errorText');
  }
  return (
    <div
      className={`query-state query-state--problem${compact ? ' query-state--compact' : ''}`}
      data-testid={`${testId}-${state}`}
      data-state={state}
      role="alert"
    >
      <p className="query-state__title">{heading}</p>
      <p className="query-state__text">{text}</p>
      <button
        type="button"
        className="button button--ghost query-state__retry"
        data-testid={`${testId}-retry`}
        disabled={query.isFetching}
        onClick={() => void query.refetch()}
      >
        {t('query.retry')}
      </button>
    </div>
  );
}

/**
 * What shows while a screen's code loads: nothing (it is quick), or, without a connection, that the screen
 * waits for it; the screen then loads by itself when the connection returns.
 */
export function ScreenLoading() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return <div className="app__screen-loading" aria-hidden="true" />;
  return (
    <div
      className="query-state query-state--problem"
      data-testid="screen-offline"
      data-state="offline"
      role="alert"
    >
      <p className="query-state__title">{t('query.offlineTitle')}</p>
      <p className="query-state__text">{t('query.offlineText')}</p>
    </div>
  );
}
