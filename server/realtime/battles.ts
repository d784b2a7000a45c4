import type { FastifyBaseLogger } from 'fastify';
import type { BattleEventMessage, BattleStatus } from '../../contract/battles.ts';
import type { App, AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import { startLeasedJob, type LeasedJobHandle } from '../jobs/lease.ts';
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
 * This module also runs the clock of battles and races, as two background jobs each run by one instance at a
 * time (server/jobs/lease.ts):
 * - 'battle-clock': the reveal of each round and the payment at the end of every running battle (timers),
 *   and a periodic sweep that cancels expired battles and pays every battle due. The instance where a battle
 *   starts announces it on an internal channel; the holder schedules its timers. A holder that takes the job
 *   over (or starts after a stop) reads the battles still rolling from the database and schedules what is
 *   left of them, and its first sweep pays those already due.
 * - 'race-payout': pays ended races, every GAMES_SWEEP_MS.
 * Every step stays safe to run twice (see battles.ts, race.ts): a payment under way when the lease moves is
 * not repeated by the next holder.
 */

export const BATTLES_CHANNEL = 'battles';
/** instance to instance: a battle has started; the holder of the battle clock schedules it */
const CLOCK_CHANNEL = 'battle-clock';

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

/** A rolled battle the clock has to reveal and pay: times in ms since the epoch. */
interface ClockEntry {
  id: string;
  rounds: number;
  startedAt: number;
  settleAt: number;
}

function isClockEntry(p: unknown): p is ClockEntry {
  if (typeof p !== 'object' || p === null) return false;
  const m = p as Record<string, unknown>;
  return (
    typeof m.id === 'string' &&
    Number.isInteger(m.rounds) &&
    Number.isFinite(m.startedAt) &&
    Number.isFinite(m.settleAt)
  );
}

export class BattleClock {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** battles whose timers are set on this instance (while it holds the clock) */
  private readonly scheduled = new Set<string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly settling = new Set<Promise<void>>();
  private unsubscribe: (() => void) | null = null;
  /** true while this instance holds the 'battle-clock' lease */
  private holding = false;
  private raceTimer: NodeJS.Timeout | null = null;
  private racing: Promise<void> | null = null;
  private readonly jobs: LeasedJobHandle[] = [];

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

  /**
   * Announces committed changes (on the instance that made them) and, for a battle that has just started,
   * reveals its first round and hands its later reveals and payment to the clock's holder.
   */
  announce(change: BattleChange): void {
    this.publish({ type: 'battle', event: change.event, id: change.publicId, status: STATUS[change.event] });
    if (change.event === 'started' && change.started) {
      const { rounds, startedAt, settleAt } = change.started;
      this.publish({ type: 'battle', event: 'round', id: change.publicId, status: 'running', round: 1 });
      const entry: ClockEntry = {
        id: change.publicId,
        rounds,
        startedAt: startedAt.getTime(),
        settleAt: settleAt.getTime(),
      };
      this.ctx.bus.publish(CLOCK_CHANNEL, entry).catch((err: unknown) => {
        // the holder's sweep still pays it when due; only the round reveals are lost
        this.log.warn({ err, battle: change.publicId }, 'a started battle was not handed to the clock');
      });
    }
  }

  /** On the holder: the timers of one battle's remaining reveals and its payment (once per battle). */
  private schedule(entry: ClockEntry): void {
    if (!this.holding || this.scheduled.has(entry.id)) return;
    this.scheduled.add(entry.id);
    const roundMs = this.ctx.config.battleRoundMs;
    const now = Date.now();
    for (let round = 2; round <= entry.rounds && roundMs > 0; round++) {
      const at = entry.startedAt + (round - 1) * roundMs;
      if (at < now) continue; // already revealed (or missed while no one held the clock): the state is readable
      this.later(at, () =>
        this.publish({ type: 'battle', event: 'round', id: entry.id, status: 'running', round }),
      );
    }
    this.later(entry.settleAt, () => {
      const work = this.settle(entry.id).finally(() => {
        this.scheduled.delete(entry.id);
        this.settling.delete(work);
      });
      this.settling.add(work);
    });
  }

  private later(at: number, run: () => void): void {
    if (!this.holding) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (this.holding) run();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private async settle(publicId: string): Promise<void> {
    try {
      const paid = await settleBattle(this.ctx.db, await battleIdOf(this.ctx.db, publicId));
      if (paid) this.publish({ type: 'battle', event: 'finished', id: publicId, status: 'finished' });
    } catch (err) {
      this.log.error({ err, battle: publicId }, 'battle payment failed; the sweep will retry');
    }
  }

  /** One pass: expired battles refunded, due battles paid. */
  private sweep(now = new Date()): Promise<void> {
    this.sweeping ??= (async () => {
      const { db } = this.ctx;
      try {
        for (const change of await expireBattles(db, now)) this.announce(change);
        for (const id of await settleDueBattles(db, now)) {
          this.scheduled.delete(id);
          this.announce({ publicId: id, event: 'finished' });
        }
      } catch (err) {
        this.log.error({ err }, 'battle sweep failed; retrying at the next one');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** One pass of the race payout. */
  private payRaces(now = new Date()): Promise<void> {
    this.racing ??= (async () => {
      const { db, config } = this.ctx;
      try {
        await payEndedRaces(db, config.racePeriodSeconds, config.racePrizesNano, now);
      } catch (err) {
        this.log.error({ err }, 'race payout failed; retrying at the next sweep');
      } finally {
        this.racing = null;
      }
    })();
    return this.racing;
  }

  /** This instance now runs the battle clock: listen for new battles, pick up the rolling ones, sweep. */
  private async takeClock(signal: AbortSignal): Promise<void> {
    this.holding = true;
    this.unsubscribe = this.ctx.bus.subscribe(CLOCK_CHANNEL, (payload) => {
      if (isClockEntry(payload)) this.schedule(payload);
    });
    for (const entry of await rollingBattles(this.ctx.db)) {
      if (signal.aborted) return;
      this.schedule(entry);
    }
    // pays battles left rolled past their time (a stopped server, a dead holder), then every gamesSweepMs
    await this.sweep();
    if (signal.aborted) return;
    this.sweepTimer = setInterval(() => void this.sweep(), this.ctx.config.gamesSweepMs);
    this.sweepTimer.unref();
  }

  private async dropClock(): Promise<void> {
    this.holding = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.scheduled.clear();
    await Promise.all([this.sweeping, ...this.settling]);
  }

  /**
   * Competes for the clock's and the race payout's leases; whichever this instance holds runs here. Resolves
   * after the first try: when this instance took a job, after its first pass (what a stop left is paid).
   */
  async start(): Promise<void> {
    this.jobs.push(
      startLeasedJob(this.ctx, {
        name: 'battle-clock',
        log: this.log,
        start: (signal) => this.takeClock(signal),
        stop: () => this.dropClock(),
      }),
      startLeasedJob(this.ctx, {
        name: 'race-payout',
        log: this.log,
        start: async () => {
          await this.payRaces();
          this.raceTimer = setInterval(() => void this.payRaces(), this.ctx.config.gamesSweepMs);
          this.raceTimer.unref();
        },
        stop: async () => {
          if (this.raceTimer) clearInterval(this.raceTimer);
          this.raceTimer = null;
          await this.racing;
        },
      }),
    );
    await Promise.all(this.jobs.map((job) => job.ready));
  }

  async close(): Promise<void> {
    await Promise.all(this.jobs.splice(0).map((job) => job.stop()));
  }
}

/** Battles rolled and not yet paid, with what the clock needs to finish them. */
async function rollingBattles(db: Db): Promise<ClockEntry[]> {
  const rows = await db
    .selectFrom('battles')
    .innerJoin('battle_rounds', 'battle_rounds.battle_id', 'battles.id')
    .select(({ fn }) => [
      'battles.public_id as id',
      'battles.started_at as startedAt',
      'battles.settle_at as settleAt',
      fn.count<number>('battle_rounds.round').as('rounds'),
    ])
    .where('battles.status', '=', 'rolled')
    .groupBy(['battles.id', 'battles.public_id', 'battles.started_at', 'battles.settle_at'])
    .execute();
  return rows.flatMap((r) =>
    r.startedAt && r.settleAt
      ? [
          {
            id: r.id,
            rounds: Number(r.rounds),
            startedAt: r.startedAt.getTime(),
            settleAt: r.settleAt.getTime(),
          },
        ]
      : [],
  );
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
