import type { DepositMethod } from '../../../contract/deposit.ts';
import type { InventoryItem } from '../../../contract/inventory.ts';

/** The credited check shows 1.2 s, then the sheet closes (spec §4, §9). */
export const CREDITED_SHOWN_MS = 1200;

/** The sheet's steps (spec §4): select → amount → waiting for the credit → credited (gifts only explains). */
export type Step =
  | { name: 'select' }
  | { name: 'gifts' }
  | { name: 'amount'; method: DepositMethod }
  | {
      name: 'waiting';
      method: DepositMethod;
      /** TON, exact decimal text */
      amount: string;
      /** the CryptoBot invoice, to open again */
      invoiceUrl: string | null;
      /** the balance when the deposit was sent (to notice a credit missed while the socket was down) */
      baseline: string | null;
    }
  | {
      name: 'credited';
      amount: string;
      /** a gift deposit: the item it became */
      item?: InventoryItem;
      /** a promo code's bonus credited with the deposit, TON, and its code */
      bonus?: string;
      promoCode?: string | null;
    };
