import { apiErrorBody, errorStatus, retryAfterSeconds } from '../api';
import { i18n } from '../i18n';

/**
 * The text to show for a failed call: for 429 (a rate limit) a translated "try again in N s", else the
 * server's message, else `fallback` (already translated by the caller).
 */
export function apiErrorText(error: unknown, fallback: string): string {
  if (errorStatus(error) === 429) {
    const seconds = retryAfterSeconds(error);
    return seconds === undefined
      ? i18n.t('common.rateLimitedSoon')
      : i18n.t('common.rateLimited', { seconds: Math.max(1, seconds) });
  }
  return apiErrorBody(error)?.message || fallback;
}
