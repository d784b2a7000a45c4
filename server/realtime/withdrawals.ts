import type { WithdrawalStatus } from '../../contract/inventory.ts';
import type { WithdrawalChangedMessage } from '../../contract/socket.ts';
import type { EventBus } from './bus.ts';

/** Bus channel of withdrawal changes: a player's app socket tells the app to read its withdrawals again. */
export const WITHDRAWALS_CHANNEL = 'withdrawals';

/** What travels on the bus for a change: ids as decimal strings. */
interface WithdrawalEvent {
  userId: string;
  id: string;
  status: WithdrawalStatus;
}

const STATUSES: readonly string[] = ['pending', 'sending', 'completed', 'failed'];

/**
 * Tells the player's sockets (on every instance) that a withdrawal changed, after the change committed. A
 * lost message costs only freshness: the app still reads its withdrawals when it opens them, and now and
 * then while one is on its way.
 */
export async function publishWithdrawal(
  bus: EventBus,
  change: { userId: bigint; id: bigint; status: WithdrawalStatus },
): Promise<void> {
  const event: WithdrawalEvent = {
    userId: change.userId.toString(),
    id: change.id.toString(),
    status: change.status,
  };
  await bus.publish(WITHDRAWALS_CHANNEL, event);
}

/** The socket message for a change from the bus, with the player it goes to; null for another shape. */
export function withdrawalMessage(
  payload: unknown,
): { userId: string; message: WithdrawalChangedMessage } | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const e = payload as Record<string, unknown>;
  if (typeof e.userId !== 'string' || !/^\d{1,20}$/.test(e.userId)) return null;
  if (typeof e.id !== 'string' || !/^\d{1,20}$/.test(e.id)) return null;
  if (typeof e.status !== 'string' || !STATUSES.includes(e.status)) return null;
  return {
    userId: e.userId,
    message: { type: 'withdrawal', id: e.id, status: e.status as WithdrawalStatus },
  };
}
