import type { PromoCodeInput, PromoCodeView } from '../../contract/retention.ts';
import type { Db } from '../db/index.ts';
import { listPromoCodes, upsertPromoCode } from './promo.ts';

/**
 * `npm run admin -- promo ...`: the operator's promo codes, on the database itself or through a running
 * server's operator API (GET /api/admin/promo-codes, PUT /api/admin/promo-codes/<code>).
 */

export const PROMO_USAGE = `  promo list                                        list the promo codes with their uses
  promo set <CODE> percent <p> [options]            a bonus of p % on the player's next deposit
  promo set <CODE> credit <ton> [options]           a fixed credit, paid when the code is entered
      options: --max <ton> (largest percent bonus), --uses <n> (players in all),
               --expires <ISO time>, --off (switch the code off; set it again without to switch it on)`;

export interface PromoBackend {
  listPromo(): Promise<PromoCodeView[]>;
  setPromo(code: string, input: PromoCodeInput): Promise<PromoCodeView>;
}

export function promoDatabase(db: Db): PromoBackend {
  return { listPromo: () => listPromoCodes(db), setPromo: (code, input) => upsertPromoCode(db, code, input) };
}

export function promoServer(call: <T>(path: string, init?: RequestInit) => Promise<T>): PromoBackend {
  return {
    listPromo: async () => (await call<{ codes: PromoCodeView[] }>('/promo-codes')).codes,
    setPromo: async (code, input) =>
      (
        await call<{ code: PromoCodeView }>(`/promo-codes/${encodeURIComponent(code)}`, {
          method: 'PUT',
          body: JSON.stringify(input),
        })
      ).code,
  };
}

function describePromo(c: PromoCodeView): string {
  const what =
    c.kind === 'deposit_percent'
      ? `+${c.percent}% of the next deposit${c.maxBonus ? ` (at most ${c.maxBonus} TON)` : ''}`
      : `${c.amount} TON credit`;
  const uses = `${c.uses}${c.maxUses === null ? '' : ` / ${c.maxUses}`} uses`;
  const expires = c.expiresAt ? `  expires ${c.expiresAt}` : '';
  return `${c.code.padEnd(12)}  ${c.active ? 'on ' : 'off'}  ${what}  ${uses}${expires}`;
}

/** Parses `set` arguments into the operator API's input; a string is the usage error. */
function parseSet(args: readonly string[]): { code: string; input: PromoCodeInput } | string {
  const [code, kind, value, ...options] = args;
  if (!code || !value || (kind !== 'percent' && kind !== 'credit'))
    return 'promo set needs a code, a kind and a value';
  const input: PromoCodeInput =
    kind === 'percent'
      ? { kind: 'deposit_percent', percent: Number(value) }
      : { kind: 'credit', amount: value };
  if (kind === 'percent' && !Number.isFinite(input.percent)) return `"${value}" is not a percent`;
  for (let i = 0; i < options.length; i++) {
    const option = options[i];
    const next = options[i + 1];
    if (option === '--off') {
      input.active = false;
      continue;
    }
    if (next === undefined) return `option "${option}" needs a value`;
    if (option === '--max') input.maxBonus = next;
    else if (option === '--uses' && /^[1-9][0-9]{0,8}$/.test(next)) input.maxUses = Number(next);
    else if (option === '--expires' && !Number.isNaN(Date.parse(next))) {
      input.expiresAt = new Date(next).toISOString();
    } else return `unknown or malformed option "${option} ${next}"`;
    i++;
  }
  return { code, input };
}

/** Runs `promo <command>`; answers the exit code (0 done, 2 usage error; refusals throw HttpError). */
export async function runPromoCommand(
  args: readonly string[],
  backend: PromoBackend,
  io: { out(line: string): void; err(line: string): void },
  usage: string,
): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'list' && rest.length === 0) {
    const codes = await backend.listPromo();
    if (codes.length === 0) io.out('No promo codes.');
    for (const c of codes) io.out(describePromo(c));
    return 0;
  }
  if (command === 'set') {
    const parsed = parseSet(rest);
    if (typeof parsed === 'string') {
      io.err(`${parsed}\n\n${usage}`);
      return 2;
    }
    io.out(describePromo(await backend.setPromo(parsed.code, parsed.input)));
    return 0;
  }
  io.err(usage);
  return 2;
}
