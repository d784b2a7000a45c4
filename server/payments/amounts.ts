import { NANO_PER_TON } from '../lib/money.ts';

/** nanoTON → exact decimal TON text without trailing zeros ("1.5", "0.000000001", "12"), for provider APIs. */
export function nanoToDecimal(nano: bigint): string {
  if (nano < 0n) return '-' + nanoToDecimal(-nano);
  const whole = nano / NANO_PER_TON;
  const frac = (nano % NANO_PER_TON).toString().padStart(9, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}
