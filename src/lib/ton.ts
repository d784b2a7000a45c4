// TON helpers without dependencies: address shortening. (Amounts: contract/money.ts.)
// (The text-comment cell needs @ton/core and lives in ton-comment.ts, loaded only where a transfer is sent.)

/**
 * An address shortened to its first `head` and last `tail` characters around `ellipsis`; an address no
 * longer than head + tail comes back whole.
 */
export function shortenAddress(address: string, head: number, tail: number, ellipsis: string): string {
  if (address.length <= head + tail) return address;
  return `${address.slice(0, head)}${ellipsis}${address.slice(address.length - tail)}`;
}

/** The wallet button's form: first 4, an ellipsis, last 4 (spec §2, §9). */
export function buttonAddress(address: string): string {
  return shortenAddress(address, 4, 4, '…');
}

/** The profile's form: first 6, '...', last 5 (spec §2, §9). */
export function profileAddress(address: string): string {
  return shortenAddress(address, 6, 5, '...');
}
