import { sql } from 'kysely';
import { INVITE_START_PREFIX, type InviteStateResponse } from '../../contract/retention.ts';
import { formatTon } from '../../contract/money.ts';
import { publicBaseUrl, type Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { LEDGER_KIND_BATTLE_REFUND, LEDGER_KIND_BATTLE_SEAT } from '../games/battles.ts';
import { LEDGER_KIND_CASE_OPEN } from '../games/opening.ts';
import type { TelegramUser } from '../auth/init-data.ts';
import { creditOnce, upsertUser, type UserRow } from '../users.ts';

/**
 * Invites (README, "Invites"). A player's link opens the Mini App with start_param `ref_<their id>`. A
 * player who signs in for the first time with it is linked to the inviter once (never to themselves,
 * never when they had signed in before: the invites row's primary key is the invitee). For every day
 * (UTC) that has ended, each inviter is credited INVITE_SHARE of the house edge of their invitees' wagers
 * that day, wager × (1 − RTP), read from the ledger (case openings and battle seats, refunds taken off):
 * one `invite_share` ledger row per inviter and day, external id `invite:<inviter>:<day>` (day = days
 * since the Unix epoch), so another instance or a restart credits nothing twice.
 */

const LEDGER_KIND_INVITE_SHARE = 'invite_share';
const DAY_MS = 86_400_000;
/** Ended days looked back on when paying (a server that was down pays the last week). */
const MAX_CATCH_UP_DAYS = 7;
const CURSOR = 'invite-share';
const WAGER_KINDS = [LEDGER_KIND_CASE_OPEN, LEDGER_KIND_BATTLE_SEAT, LEDGER_KIND_BATTLE_REFUND];

/** The inviter named by a start parameter `ref_<id>`, or null. */
function inviterFrom(startParam: string | null): bigint | null {
  if (!startParam?.startsWith(INVITE_START_PREFIX)) return null;
  const id = startParam.slice(INVITE_START_PREFIX.length);
  return /^[1-9][0-9]{0,18}$/.test(id) ? BigInt(id) : null;
}

/**
 * Links a player who has just signed in for the first time to the inviter their start parameter names.
 * Returns whether a link was made.
 */
async function linkInvitee(db: Db, inviteeId: bigint, inviterId: bigint | null): Promise<boolean> {
  if (inviterId === null || inviterId === inviteeId) return false;
  const inviter = await db.selectFrom('users').select('id').where('id', '=', inviterId).executeTakeFirst();
  if (!inviter) return false;
  const row = await db
    .insertInto('invites')
    .values({ invitee_id: inviteeId, inviter_id: inviterId })
    .onConflict((oc) => oc.column('invitee_id').doNothing())
    .returning('invitee_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The Mini App link that opens with `startapp=ref_<id>`: TWA_RETURN_URL's, or the public URL's. */
function inviteLink(config: Pick<Config, 'twaReturnUrl' | 'publicUrl' | 'port'>, userId: bigint): string {
  const param = `${INVITE_START_PREFIX}${userId}`;
  const base = config.twaReturnUrl ?? `${publicBaseUrl(config)}/`;
  const url = new URL(base);
  url.searchParams.set('startapp', param);
  return url.toString();
}

export async function inviteState(
  db: Db,
  config: Pick<Config, 'twaReturnUrl' | 'publicUrl' | 'port' | 'retention'>,
  userId: bigint,
): Promise<InviteStateResponse> {
  const link = inviteLink(config, userId);
  const invitees = await db
    .selectFrom('invites')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('inviter_id', '=', userId)
    .executeTakeFirstOrThrow();
  const earned = await db
    .selectFrom('ledger')
    .select(sql<string>`coalesce(sum(delta_nano), 0)`.as('sum'))
    .where('user_id', '=', userId)
    .where('kind', '=', LEDGER_KIND_INVITE_SHARE)
    .executeTakeFirstOrThrow();
  return {
    link,
    invitees: Number(invitees.n),
    earned: formatTon(BigInt(earned.sum)),
    share: config.retention.inviteSharePpm / 1_000_000,
  };
}

/**
 * What each inviter earns for one day: floor(Σ wagers × (1 − RTP) × share), with RTP and the share as
 * exact millionths, so the sum is integer nanoTON.
 */
async function sharesOfDay(
  db: Db,
  day: number,
  rtpPpm: bigint,
  sharePpm: bigint,
): Promise<{ inviterId: bigint; wagerNano: bigint; shareNano: bigint }[]> {
  const start = new Date(day * DAY_MS);
  const end = new Date((day + 1) * DAY_MS);
  const { rows } = await sql<{ inviter_id: bigint; wager: string }>`
    SELECT i.inviter_id, SUM(-l.delta_nano)::TEXT AS wager
    FROM ledger l JOIN invites i ON i.invitee_id = l.user_id
    WHERE l.kind IN (${sql.join(WAGER_KINDS)})
      AND l.created_at >= ${start} AND l.created_at < ${end}
      AND l.created_at >= i.created_at
    GROUP BY i.inviter_id`.execute(db);
  return rows
    .map((r) => {
      const wagerNano = BigInt(r.wager);
      return {
        inviterId: BigInt(r.inviter_id),
        wagerNano,
        shareNano: (wagerNano * (1_000_000n - rtpPpm) * sharePpm) / 1_000_000_000_000n,
      };
    })
    .filter((r) => r.shareNano > 0n);
}

/**
 * Credits every ended day's invite shares not credited yet (up to a week back). Returns the number of
 * credits this call made.
 */
export async function payInviteShares(
  db: Db,
  config: Pick<Config, 'rtp' | 'retention'>,
  now = new Date(),
): Promise<number> {
  const sharePpm = BigInt(config.retention.inviteSharePpm);
  if (sharePpm === 0n) return 0;
  const rtpPpm = BigInt(Math.round(config.rtp * 1_000_000));
  const today = Math.floor(now.getTime() / DAY_MS);
  const cursor = await db
    .selectFrom('payment_cursors')
    .select('position')
    .where('name', '=', CURSOR)
    .executeTakeFirst();
  const from = Math.max(cursor ? Number(cursor.position) + 1 : today - 1, today - MAX_CATCH_UP_DAYS);
  let paid = 0;
  for (let day = from; day < today; day++) {
    for (const s of await sharesOfDay(db, day, rtpPpm, sharePpm)) {
      try {
        const done = await creditOnce(
          db,
          s.inviterId,
          s.shareNano,
          LEDGER_KIND_INVITE_SHARE,
          `invite:${s.inviterId}:${day}`,
          `day ${day}: wagers ${formatTon(s.wagerNano)} TON`,
        );
        if (done) paid++;
      } catch (err) {
        if ((err as { code?: unknown }).code !== '23505') throw err; // another instance paid it meanwhile
      }
    }
    await db
      .insertInto('payment_cursors')
      .values({ name: CURSOR, position: day })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          position: sql<bigint>`GREATEST(payment_cursors.position, excluded.position)`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }
  return paid;
}

/**
 * Sign-in with the invite link's start parameter: creates or refreshes the player, and when this sign-in
 * created them, links them to the inviter their launch data's `start_param` names.
 */
export async function signInWithInvite(db: Db, user: TelegramUser, initData: string): Promise<UserRow> {
  const before = await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst();
  const row = await upsertUser(db, user);
  if (!before) await linkInvitee(db, row.id, inviterFrom(new URLSearchParams(initData).get('start_param')));
  return row;
}
