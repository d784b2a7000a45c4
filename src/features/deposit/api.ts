import { atomWithQuery } from 'jotai-tanstack-query';
import type {
  CryptobotInvoiceResponse,
  DemoDepositResponse,
  DepositInfo,
  DepositMethod,
  GiftDepositInfo,
  SimulateGiftResponse,
} from '../../../contract/deposit.ts';
import { api, requireConnection } from '../../api';
import { queryKeys } from '../../state/queries';

/** GET /deposit/info: the receiving address and comment, which methods work, whether they are demo. */
export const depositInfoAtom = atomWithQuery(() => ({
  queryKey: queryKeys.depositInfo,
  queryFn: () => api.request<DepositInfo>('/deposit/info'),
  staleTime: 5 * 60_000,
}));

/** POST /deposit/cryptobot-invoice {amount} → {invoiceUrl, ...} */
export async function createCryptobotInvoice(amount: string): Promise<CryptobotInvoiceResponse> {
  requireConnection(); // fails at once offline, never sent later
  return api.request<CryptobotInvoiceResponse>('/deposit/cryptobot-invoice', {
    method: 'POST',
    body: { amount },
  });
}

/** POST /deposit/demo {amount, method}: demo mode only; the credit arrives over the deposit socket. */
export async function createDemoDeposit(amount: string, method: DepositMethod): Promise<DemoDepositResponse> {
  requireConnection(); // fails at once offline, never sent later
  return api.request<DemoDepositResponse>('/deposit/demo', { method: 'POST', body: { amount, method } });
}

/** Gift deposits: 'demo' with the simulated Telegram, 'real' with a business account, 'off' otherwise. */
export function giftsMode(info: DepositInfo | undefined): 'real' | 'demo' | 'off' {
  if (!info?.gifts) return 'off';
  return info.gifts.demo ? 'demo' : 'real';
}

/** Whether a method works on this server, and whether it is the demo provider. */
export function methodMode(info: DepositInfo | undefined, method: DepositMethod): 'real' | 'demo' | 'off' {
  if (!info) return 'off';
  if (method === 'ton') return info.ton ? (info.ton.demo ? 'demo' : 'real') : 'off';
  return info.cryptobot ? (info.cryptobotDemo ? 'demo' : 'real') : 'off';
}

/** GET /deposit/gifts: the operator's account to send a gift to, and the collections that become items. */
export const giftDepositInfoAtom = atomWithQuery(() => ({
  queryKey: ['deposit', 'gifts'],
  queryFn: () => api.request<GiftDepositInfo>('/deposit/gifts'),
  staleTime: 5 * 60_000,
}));

/** POST /deposit/gifts/simulate {itemId}: demo mode only; the gift's credit arrives over the deposit socket. */
export function simulateGiftDeposit(itemId: string): Promise<SimulateGiftResponse> {
  return api.request<SimulateGiftResponse>('/deposit/gifts/simulate', { method: 'POST', body: { itemId } });
}
