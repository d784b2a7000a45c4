import type { FastifyBaseLogger } from 'fastify';
import type { BattleEventMessage, BattleStatus } from '../../contract/battles.ts';
import type { App, AppContext } from '../context.ts';
import type { BattleChange, BattleTiming } from '../games/battles.ts';
import { settleBattle, settleDueBattles, expireBattles, battleIdOf } from '../games/battles.ts';
import { payEndedRaces } from '../games/race.ts';
import type { EventBus } from './bus.ts';
import { limitSocketMessages, messageText, SocketHub, type Socket } from './sockets.ts';

/**
 * Battles live: GET /ws/battles (WebSocket, public, for players and spectators alike) carries a small
 * {type: 'battle', event, id, status} message whenever any battle changes, on any instance (the bus:
 * LISTEN/NOTIFY on Postgres). The message is a hint; the battle itself is read with GET /battles/:id, so a
 * client that reconnects (or missed a message) sees the current state by reading it again.
 *
 * This module also runs the clock of battles and races on each instance: the reveal of each round and the
 * payment at the end of a battle it started (timers), and a periodic sweep that cancels expired battles,
 * pays every battle due (also those a stopped server left rolled but unpaid: the sweep runs at start) and
 * pays ended races. Every step is safe to run twice or on several instances at once (see battles.ts, race.ts).
 */

export const BATTLES_CHANNEL = 'battles';

const STATUS: Record<BattleChange['event'], BattleStatus> = {
  created: 'open',
  seat: 'open',
  started: 'running',
  finished: 'finished',
  cancelled: 'cancelled',
};

export function isBattleEvent(p: unknown): p is BattleEventMessage {
  if (typeof p !== 'object' || p === null) return false;
  const m = p as Record<string, unknown>;
  return m.type === 'battle' && typeof m.id === 'string' && typeof m.event === 'string';
}

export class BattleClock {
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  get timing(): BattleTiming {
    return {
      lobbyTimeoutMs: this.ctx.config.battleLobbyTimeoutSeconds * 1000,
      roundMs: this.ctx.config.battleRoundMs,
    };
  }

  private publish(message: BattleEventMessage): void {
    this.ctx.bus.publish(BATTLES_CHANNEL, message).catch((err: unknown) => {
      this.log.warn({ err, battle: message.id }, 'a battle event was not announced');
    });
  }

  /** Announces committed changes and, for a battle that has just started, schedules its reveals and payment. */
  announce(change: BattleChange): void {
    this.publish({ type: 'battle', event: change.event, id: change.publicId, status: STATUS[change.event] });
    if (change.event === 'started' && change.started) {
      const { rounds, startedAt, settleAt } = change.started;
      const roundMs = this.ctx.config.battleRoundMs;
      this.publish({ type: 'battle', event: 'round', id: change.publicId, status: 'running', round: 1 });
      for (let round = 2; round <= rounds && roundMs > 0; round++) {
        this.later(startedAt.getTime() + (round - 1) * roundMs, () =>
          this.publish({ type: 'battle', event: 'round', id: change.publicId, status: 'running', round }),
        );
      }
      this.later(settleAt.getTime(), () => void this.settle(change.publicId));
    }
  }

  private later(at: number, run: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.closed) run();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private async settle(publicId: string): Promise<void> {
    try {
      const paid = await settleBattle(this.ctx.db, await battleIdOf(this.ctx.db, publicId));
      if (paid) this.announce({ publicId, event: 'finished' });
    } catch (err) {
      this.log.error({ err, battle: publicId }, 'battle payment failed; the sweep will retry');
    }
  }

  /** One pass: expired battles refunded, due battles paid, ended races paid. */
  sweep(now = new Date()): Promise<void> {
    this.sweeping ??= (async () => {
      const { db, config } = this.ctx;
      try {
        for (const change of await expireBattles(db, now)) this.announce(change);
        for (const id of await settleDueBattles(db, now)) this.announce({ publicId: id, event: 'finished' });
        await payEndedRaces(db, config.racePeriodSeconds, config.racePrizesNano, now);
      } catch (err) {
        this.log.error({ err }, 'battle and race sweep failed; retrying at the next one');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Sweeps now (settling what a stopped server left) and then every gamesSweepMs. */
  async start(): Promise<void> {
    await this.sweep();
    if (this.closed) return;
    this.sweepTimer = setInterval(() => void this.sweep(), this.ctx.config.gamesSweepMs);
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.sweeping;
  }
}

/** GET /ws/battles: every battle event from every instance; {type: 'ping'} gets {type: 'pong'}. */
export function battleSocketRoutes(app: App, bus: EventBus, messagesPer10s: number): void {
  const hub = new SocketHub();
  const unsubscribe = bus.subscribe(BATTLES_CHANNEL, (payload) => {
    if (isBattleEvent(payload)) hub.broadcast(payload);
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    hub.close();
  });
  app.get('/ws/battles', { websocket: true }, (raw) => {
    const socket = raw as unknown as Socket;
    // before any other listener: a flooding socket is closed (1008) before its messages are read
    limitSocketMessages(socket, messagesPer10s);
    hub.add('spectators', socket);
    socket.on('message', (data) => {
      const text = messageText(data);
      if (text !== null && text.length < 256 && /"type"\s*:\s*"ping"/.test(text)) {
        if (socket.readyState === 1) socket.send('{"type":"pong"}');
      }
    });
  });
}
