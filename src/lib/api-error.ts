import { apiErrorBody, errorStatus, OfflineError, retryAfterSeconds } from '../api';
import { i18n } from '../i18n';
import type en from '../i18n/en.json';

/** An error code the server answers with, translated under `apiErrors` (one entry a code). */
type KnownCode = Exclude<keyof (typeof en)['apiErrors'], 'unknown'>;

function isKnownCode(code: string): code is KnownCode {
  return code !== 'unknown' && i18n.exists(`apiErrors.${code}`);
}

/**
 * The text to show for a failed call, in the interface language: offline, that nothing was done; for 429 (a rate limit) "try again in N s";
 * for an error code the server answered, its translation (the server's own `message` is English for API
 * users and never shown); for anything else `fallback` (translated by the caller), or a generic message.
 */
export function apiErrorText(error: unknown, fallback?: string): string {
  // a money action tapped without a connection: not sent, nothing changed, and it will not run later
  if (error instanceof OfflineError) return i18n.t('common.offlineAction');
  if (errorStatus(error) === 429) {
    const seconds = retryAfterSeconds(error);
    return seconds === undefined
      ? i18n.t('common.rateLimitedSoon')
      : i18n.t('common.rateLimited', { seconds: Math.max(1, seconds) });
  }
  const code = apiErrorBody(error)?.code;
  if (code && isKnownCode(code)) return i18n.t(`apiErrors.${code}`);
  return fallback || i18n.t('apiErrors.unknown');
}
