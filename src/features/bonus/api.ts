import { atomWithQuery } from 'jotai-tanstack-query';
import type { WheelSpinResponse, WheelStateResponse } from '../../../contract/retention.ts';
import { api } from '../../api';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';

/** The wheel's query key (its prizes and whether a spin is ready). */
const wheelKey = ['wheel'] as const;

/** GET /wheel → the prize table, whether a spin is ready and when the next daily one comes. */
export const wheelAtom = atomWithQuery(() => ({
  queryKey: wheelKey,
  queryFn: () => api.request<WheelStateResponse>('/wheel'),
}));

/** POST /wheel/spin: one Idempotency-Key per tap, so a retry never spins twice. */
export function spinWheel(): Promise<WheelSpinResponse> {
  return api.money<WheelSpinResponse>('/wheel/spin', { method: 'POST' });
}

/** Once the wheel has landed: the balance, the inventory (a case prize) and the profile (its spins) follow. */
export function afterSpin(answer: WheelSpinResponse): void {
  queryClient.setQueryData(queryKeys.balance, answer.balance);
  queryClient.setQueryData<WheelStateResponse>(wheelKey, (old) =>
    old
      ? {
          ...old,
          available: answer.available,
          nextSpinAt: answer.nextSpinAt,
          extraSpins: answer.extraSpins,
          now: answer.now,
        }
      : old,
  );
  void queryClient.invalidateQueries({ queryKey: queryKeys.inventory });
  void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
}
