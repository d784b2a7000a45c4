import { Api, GrammyError, HttpError } from 'grammy';
import type { OwnedGifts, StarAmount, StarTransactions } from 'grammy/types';
import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import type { Config } from '../config.ts';
import type { WithdrawalFailure } from '../../contract/inventory.ts';

/**
 * The Bot API calls the workers make, by grammY's own names and parameters: grammY's `Api` is one
 * implementation (real Telegram, or a stand-in through TELEGRAM_API_ROOT), the demo mode's simulated
 * Telegram (simulated.ts) the other.
 */
export interface TelegramCalls {
  sendMessage(
    chatId: number,
    text: string,
    other?: { reply_markup?: { inline_keyboard: InlineButton[][] } },
    signal?: AbortSignal,
  ): Promise<unknown>;
  sendGift(userId: number, giftId: string, other?: { text?: string }, signal?: AbortSignal): Promise<true>;
  transferGift(
    businessConnectionId: string,
    ownedGiftId: string,
    newOwnerChatId: number,
    starCount: number,
    signal?: AbortSignal,
  ): Promise<true>;
  getBusinessAccountGifts(
    businessConnectionId: string,
    other: { offset?: string; limit?: number },
    signal?: AbortSignal,
  ): Promise<OwnedGifts>;
  getStarTransactions(
    other: { offset?: number; limit?: number },
    signal?: AbortSignal,
  ): Promise<StarTransactions>;
  getMyStarBalance(signal?: AbortSignal): Promise<StarAmount>;
}

type InlineButton = { text: string; url: string } | { text: string; web_app: { url: string } };

/**
 * Two grammY clients on one token. Messages: the throttler keeps within Telegram's send limits and
 * auto-retry repeats a 429 after its retry_after and a 5xx. Gifts: auto-retry repeats only a 429 (Telegram
 * did nothing then); a 5xx or a timeout leaves the outcome unknown, so the delivery worker reconciles it
 * instead of sending again. A 429 whose retry_after is too long to wait inline is passed on, and the
 * worker comes back to it then.
 */
export function createTelegramApis(config: Config, token: string): { messages: Api; gifts: Api } {
  const options = {
    apiRoot: config.telegramApiRoot,
    timeoutSeconds: config.telegramTimeoutSeconds,
  };
  const messages = new Api(token, options);
  messages.config.use(apiThrottler());
  messages.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  const gifts = new Api(token, options);
  gifts.config.use(
    autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowInternalServerErrors: true }),
  );
  return { messages, gifts };
}

/** What a failed call means for the caller. */
export type CallFailure =
  /** Telegram asked to wait (429): it did nothing; try again after `retryAfterSeconds` */
  | { kind: 'later'; retryAfterSeconds: number }
  /** Telegram refused for good: the player, the gift or the bot's means make it impossible */
  | { kind: 'refused'; reason: WithdrawalFailure; blocked: boolean; description: string }
  /** no answer, a timeout or a server error: Telegram may or may not have acted */
  | { kind: 'unknown'; description: string };

/** Reads a grammY error (or any other) into what the caller should do next. */
export function classifyFailure(err: unknown): CallFailure {
  if (err instanceof GrammyError) {
    const description = err.description;
    if (err.error_code === 429) {
      return { kind: 'later', retryAfterSeconds: Math.max(1, err.parameters.retry_after ?? 5) };
    }
    if (err.error_code >= 500) return { kind: 'unknown', description };
    return {
      kind: 'refused',
      reason: refusalReason(err.error_code, description),
      blocked: isBlocked(err),
      description,
    };
  }
  if (err instanceof HttpError) return { kind: 'unknown', description: err.message };
  return { kind: 'unknown', description: err instanceof Error ? err.message : String(err) };
}

function isBlocked(err: GrammyError): boolean {
  return err.error_code === 403 && /blocked|deactivated/i.test(err.description);
}

/** Bot API descriptions of the refusals a withdrawal can meet, by what they mean for the player. */
function refusalReason(code: number, description: string): WithdrawalFailure {
  const d = description.toLowerCase();
  if (code === 403) return /blocked|deactivated/.test(d) ? 'BOT_BLOCKED' : 'BOT_NOT_STARTED';
  if (
    /chat not found|peer_id_invalid|user not found|chat_not_active|user_not_participant|not active/.test(d)
  ) {
    return 'BOT_NOT_STARTED';
  }
  if (/sold out|usage_limited|stargift_usage_limited/.test(d)) return 'GIFT_SOLD_OUT';
  if (/balance_too_low|not enough stars|stars_insufficient|insufficient/.test(d)) return 'NOT_ENOUGH_STARS';
  return 'REFUSED';
}
