import { createHash, createHmac } from 'node:crypto';

// An independent re-implementation of the roll, written from the README's "Provably fair" section only
// (it shares no code with server/games): bigint throughout, node:crypto for the hashes. Tests run it
// against the server's public proofs.

const TWO_52 = 2n ** 52n;

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** An unbiased integer in [0, n) from (serverSeed, clientSeed, nonce). */
function roll(serverSeed: string, clientSeed: string, nonce: number, n: bigint): bigint {
  const limit = (TWO_52 / n) * n;
  for (let round = 0; ; round++) {
    const message = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
    const hex = createHmac('sha256', serverSeed).update(message).digest('hex');
    for (let i = 0; i < 4; i++) {
      const v = BigInt('0x' + hex.slice(13 * i, 13 * i + 13));
      if (v < limit) return v % n;
    }
  }
}

/** A case opening: the table's hash, the roll and the item it picks. */
export function verifyCase(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  tableText: string,
): { tableHash: string; roll: bigint; total: bigint; itemId: string } {
  const table = JSON.parse(tableText) as [string, number][];
  const total = table.reduce((s, [, w]) => s + BigInt(w), 0n);
  const r = roll(serverSeed, clientSeed, nonce, total);
  let upper = 0n;
  for (const [itemId, weight] of table) {
    upper += BigInt(weight);
    if (r < upper) return { tableHash: sha256(tableText), roll: r, total, itemId };
  }
  throw new Error('unreachable');
}

/** An upgrade: the roll in [0, 2^52) and whether roll / 2^52 < numerator / denominator. */
export function verifyUpgrade(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  chanceNumerator: string,
  chanceDenominator: string,
): { roll: bigint; success: boolean } {
  const r = roll(serverSeed, clientSeed, nonce, TWO_52);
  return { roll: r, success: r * BigInt(chanceDenominator) < BigInt(chanceNumerator) * TWO_52 };
}

/** A daily wheel spin: the prize table's hash, the roll and the segment (the entry's index) it lands on. */
export function verifyWheel(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  tableText: string,
): { tableHash: string; roll: bigint; total: bigint; segment: number } {
  const table = JSON.parse(tableText) as [string, number][];
  const total = table.reduce((s, [, w]) => s + BigInt(w), 0n);
  const r = roll(serverSeed, clientSeed, nonce, total);
  let upper = 0n;
  for (let segment = 0; segment < table.length; segment++) {
    upper += BigInt(table[segment]![1]);
    if (r < upper) return { tableHash: sha256(tableText), roll: r, total, segment };
  }
  throw new Error('unreachable');
}
