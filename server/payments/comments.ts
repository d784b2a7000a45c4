import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';

/** Letters and digits that survive being read aloud or retyped: no 0/o, 1/l/i. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const PREFIX = 'gc-';
const LENGTH = 10; // 31^10 ≈ 8·10^14 comments

function randomComment(): string {
  const bytes = randomBytes(LENGTH * 2);
  let out = '';
  // 2 bytes per character: the modulo bias over 65536 is below 0.05%, irrelevant for an identifier
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[bytes.readUInt16BE(i * 2) % ALPHABET.length];
  return PREFIX + out;
}

/** How a comment read from the chain is compared: trimmed, lower case. */
function normalizeComment(text: string): string {
  return text.trim().toLowerCase();
}

/** The player's deposit comment, issued on first use and stable afterwards (also across instances). */
export async function depositCommentFor(db: Db, userId: bigint): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await db
      .selectFrom('deposit_comments')
      .select('comment')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) return existing.comment;
    // a concurrent request for the same player wins on the primary key; a comment collision (vanishingly
    // rare) on the unique comment: either way nothing is inserted and the loop reads or retries
    await db
      .insertInto('deposit_comments')
      .values({ user_id: userId, comment: randomComment() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  throw new Error('could not issue a deposit comment');
}

/** The player a deposit comment belongs to, or null. */
export async function userByComment(db: Db, comment: string): Promise<bigint | null> {
  const normalized = normalizeComment(comment);
  if (!normalized.startsWith(PREFIX) || normalized.length > 64) return null;
  const row = await db
    .selectFrom('deposit_comments')
    .select('user_id')
    .where('comment', '=', normalized)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** When the first deposit comment was issued: no TON deposit can name a player before that. */
export async function firstCommentIssuedAt(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('deposit_comments')
    .select((eb) => eb.fn.min('created_at').as('first'))
    .executeTakeFirst();
  const first = row?.first as Date | string | null | undefined;
  return first ? new Date(first) : null;
}
