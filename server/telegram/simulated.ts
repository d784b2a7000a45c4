import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { OwnedGift, OwnedGifts, StarTransaction, StarTransactions } from 'grammy/types';
import type { TelegramCalls } from './api.ts';

/** The business connection id of the simulated operator account. */
export const SIMULATED_CONNECTION_ID = 'simulated-business-connection';
/** The simulated operator account players "send" gifts to. */
export const SIMULATED_GIFT_ACCOUNT = '@giftcases_demo';

/** Demo mode's unique-gift collections, each mapped to a catalogue item at start (see demoGiftMapping). */
export const DEMO_COLLECTIONS: Record<string, string> = {
  nft_1: 'Demo Collection One',
  nft_2: 'Demo Collection Two',
  golden_egg: 'Demo Golden Egg',
};

/** Unique gifts of each demo collection the simulated account starts with (stock for withdrawals). */
const STARTING_STOCK = 5;
/** When the starting stock "arrived" (Unix seconds, 2023-11-14): before any deposit could be read. */
const STOCK_SEND_DATE = 1_700_000_000;

/**
 * Demo mode's simulated Telegram (no BOT_TOKEN): the Bot API calls the workers make, answered in memory.
 * A sent or transferred gift "arrives" after DEMO_GIFT_DELAY_MS; incoming gifts come from the deposit
 * sheet's simulate button. Every call is logged as a simulation. State lives in memory, like demo deposits:
 * a restart starts a fresh simulated account (the database keeps what was credited or delivered).
 */
export class SimulatedTelegram implements TelegramCalls {
  private readonly owned: OwnedGift[] = [];
  private readonly transactions: StarTransaction[] = [];
  private stars = 1_000_000;
  private sequence = 0;

  constructor(
    private readonly delayMs: number,
    private readonly log?: FastifyBaseLogger,
  ) {
    for (const collection of Object.values(DEMO_COLLECTIONS)) {
      for (let i = 0; i < STARTING_STOCK; i++) this.receiveUnique(collection, null);
    }
  }

  /** A gift of a collection arrives on the simulated account (from the deposit sheet's simulate button). */
  receiveUnique(collection: string, senderId: bigint | null): string {
    const id = `sim-${++this.sequence}-${randomUUID().slice(0, 8)}`;
    const number = this.sequence;
    this.owned.push({
      type: 'unique',
      owned_gift_id: id,
      // the starting stock was there long before deposits were first read (it is stock, not a deposit)
      send_date: senderId === null ? STOCK_SEND_DATE : Math.floor(Date.now() / 1000),
      can_be_transferred: true,
      transfer_star_count: 0,
      ...(senderId !== null
        ? { sender_user: { id: Number(senderId), is_bot: false, first_name: 'Player' } }
        : {}),
      gift: {
        gift_id: `sim-${collection}`,
        base_name: collection,
        name: `${collection.replace(/\W+/g, '')}-${number}`,
        number,
        model: { name: 'Demo', sticker: stubSticker(), rarity_per_mille: 100 },
        symbol: { name: 'Demo', sticker: stubSticker(), rarity_per_mille: 100 },
        backdrop: {
          name: 'Demo',
          colors: { center_color: 0, edge_color: 0, symbol_color: 0, text_color: 0 },
          rarity_per_mille: 100,
        },
      },
    } as OwnedGift);
    if (senderId !== null)
      this.log?.info({ collection, senderId: senderId.toString() }, 'SIMULATED Telegram: a gift arrived');
    return id;
  }

  async sendMessage(chatId: number, text: string): Promise<unknown> {
    this.log?.info({ chatId, text }, 'SIMULATED Telegram: bot message');
    return { message_id: ++this.sequence };
  }

  async sendGift(userId: number, giftId: string, _other?: unknown, signal?: AbortSignal): Promise<true> {
    await this.wait(signal);
    this.stars -= 1;
    this.transactions.push({
      id: `sim-tx-${++this.sequence}`,
      amount: 1,
      date: Math.floor(Date.now() / 1000),
      receiver: {
        type: 'user',
        transaction_type: 'gift_purchase',
        user: { id: userId, is_bot: false, first_name: 'Player' },
        gift: { id: giftId, sticker: stubSticker(), star_count: 1 },
      },
    } as StarTransaction);
    this.log?.info({ userId, giftId }, 'SIMULATED Telegram: gift sent');
    return true;
  }

  async transferGift(
    _connection: string,
    ownedGiftId: string,
    newOwnerChatId: number,
    _stars: number,
    signal?: AbortSignal,
  ): Promise<true> {
    await this.wait(signal);
    const index = this.owned.findIndex((g) => g.owned_gift_id === ownedGiftId);
    if (index < 0) throw new Error(`simulated Telegram: no owned gift ${ownedGiftId}`);
    this.owned.splice(index, 1);
    this.log?.info({ ownedGiftId, to: newOwnerChatId }, 'SIMULATED Telegram: gift transferred');
    return true;
  }

  async getBusinessAccountGifts(
    _connection: string,
    other: { offset?: string; limit?: number },
  ): Promise<OwnedGifts> {
    const start = Number(other.offset ?? 0) || 0;
    const limit = other.limit ?? 100;
    const page = this.owned.slice(start, start + limit);
    const next = start + page.length;
    return {
      total_count: this.owned.length,
      gifts: page,
      ...(next < this.owned.length ? { next_offset: String(next) } : {}),
    };
  }

  async getStarTransactions(other: { offset?: number; limit?: number }): Promise<StarTransactions> {
    const start = other.offset ?? 0;
    return { transactions: this.transactions.slice(start, start + (other.limit ?? 100)) };
  }

  async getMyStarBalance() {
    return { amount: this.stars };
  }

  private wait(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, this.delayMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      });
    });
  }
}

function stubSticker() {
  return {
    file_id: 'simulated',
    file_unique_id: 'simulated',
    type: 'custom_emoji' as const,
    width: 512,
    height: 512,
    is_animated: false,
    is_video: false,
  };
}
