import type { DepositCreditedMessage, CreditedMethod } from '../../contract/deposit.ts';
import type { App, AppContext } from '../context.ts';
import type { EventBus } from './bus.ts';
import {
  authenticateSocket,
  limitSocketMessages,
  messageText,
  sendJson,
  SocketHub,
  ThrottledWarning,
  type Socket,
} from './sockets.ts';
import { formatTon } from '../../contract/money.ts';

/** Bus channel of credited deposits. */
export const DEPOSITS_CHANNEL = 'deposits';

/** What travels on the bus for a credit: exact nanoTON as decimal strings, ids as strings. */
export interface DepositEvent {
  userId: string;
  amountNano: string;
  balanceNano: string;
  method: CreditedMethod;
  /** the credit's external id */
  id: string;
  demo: boolean;
  /** a gift deposit: the item it was credited as (amountNano is its price) */
  item?: { id: string; name: string; imageUrl: string; priceNano: string };
  /** a promo code's bonus credited with the deposit, nanoTON (absent: none) */
  bonusNano?: string;
  promoCode?: string | null;
}

export function publishDeposit(bus: EventBus, event: DepositEvent): Promise<void> {
  return bus.publish(DEPOSITS_CHANNEL, event);
}

function isDepositEvent(p: unknown): p is DepositEvent {
  if (typeof p !== 'object' || p === null) return false;
  const e = p as Record<string, unknown>;
  return (
    typeof e.userId === 'string' &&
    /^\d+$/.test(e.userId) &&
    typeof e.amountNano === 'string' &&
    /^\d+$/.test(e.amountNano) &&
    typeof e.balanceNano === 'string' &&
    /^\d+$/.test(e.balanceNano) &&
    (e.method === 'ton' || e.method === 'cryptobot' || e.method === 'gifts') &&
    typeof e.id === 'string' &&
    typeof e.demo === 'boolean'
  );
}

/** The socket message for a deposit event from the bus, with the player it goes to; null for another shape. */
export function depositMessage(payload: unknown): { userId: string; message: DepositCreditedMessage } | null {
  if (!isDepositEvent(payload)) return null;
  return {
    userId: payload.userId,
    message: {
      type: 'deposit_credited',
      amount: formatTon(BigInt(payload.amountNano)),
      balance: formatTon(BigInt(payload.balanceNano)),
      method: payload.method,
      id: payload.id,
      demo: payload.demo,
      ...(payload.item
        ? {
            item: {
              id: payload.item.id,
              name: payload.item.name,
              imageUrl: payload.item.imageUrl,
              price: formatTon(BigInt(payload.item.priceNano)),
            },
          }
        : {}),
      ...(payload.bonusNano && /^\d+$/.test(payload.bonusNano) && BigInt(payload.bonusNano) > 0n
        ? { bonus: formatTon(BigInt(payload.bonusNano)), promoCode: payload.promoCode ?? null }
        : {}),
    },
  };
}

/**
 * GET /ws/deposits (WebSocket). The client sends {type: 'auth', token} first; the server answers
 * {type: 'auth_ok'} and from then on pushes {type: 'deposit_credited', ...} for that player's credits,
 * made by any instance. {type: 'ping'} is answered with {type: 'pong'}; anything else is ignored.
 */
export function depositSocketRoutes(app: App, ctx: AppContext): void {
  const hub = new SocketHub();
  const floods = new ThrottledWarning(app.log, 'deposit sockets closed for sending too many messages');
  const unsubscribe = ctx.bus.subscribe(DEPOSITS_CHANNEL, (payload) => {
    const deposit = depositMessage(payload);
    if (!deposit) {
      app.log.warn('deposit event of an unknown shape ignored');
      return;
    }
    hub.sendToUser(deposit.userId, deposit.message);
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    hub.close();
    floods.flush();
  });

  const authTimeoutMs = ctx.config.socketAuthTimeoutMs;
  app.get('/ws/deposits', { websocket: true }, (raw) => {
    const socket = raw as Socket;
    limitSocketMessages(socket, ctx.config.socketMessagesPer10s, () => floods.count());
    void authenticateSocket(ctx, socket, authTimeoutMs).then((userId) => {
      if (userId === null) return;
      hub.add(userId, socket);
      sendJson(socket, { type: 'auth_ok' });
      socket.on('message', (data) => {
        const text = messageText(data);
        if (text !== null && text.length < 256 && /"type"\s*:\s*"ping"/.test(text)) {
          sendJson(socket, { type: 'pong' });
        }
      });
    });
  });
}
