import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type {
  Battle,
  BattleEventMessage,
  BattleResponse,
  BattleSeatResponse,
  BattlesResponse,
  CancelBattleResponse,
  CreateBattleRequest,
  JoinBattleRequest,
} from '../../../contract/battles.ts';
import { API_BASE, api, newIdempotencyKey } from '../../api';
import { feedSocketUrl } from '../../api/feed-socket';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';

export const fetchLobby = async (): Promise<Battle[]> =>
  (await api.request<BattlesResponse>('/battles')).battles;
export const fetchBattle = async (id: string): Promise<Battle> =>
  (await api.request<BattleResponse>(`/battles/${id}`)).battle;

/** POST /battles: the creator's seat, debited once even if retried (Idempotency-Key). */
export function createBattle(body: CreateBattleRequest): Promise<BattleSeatResponse> {
  return api.request<BattleSeatResponse>('/battles', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': newIdempotencyKey() },
  });
}

export function joinBattle(id: string, body: JoinBattleRequest = {}): Promise<BattleSeatResponse> {
  return api.request<BattleSeatResponse>(`/battles/${id}/join`, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': newIdempotencyKey() },
  });
}

export function fillWithBots(id: string): Promise<BattleResponse> {
  return api.request<BattleResponse>(`/battles/${id}/bots`, { method: 'POST' });
}

export function cancelBattle(id: string): Promise<CancelBattleResponse> {
  return api.request<CancelBattleResponse>(`/battles/${id}/cancel`, { method: 'POST' });
}

/** After a seat was bought or refunded: the balance changed. */
export function refreshBalance(): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
}

/** The battles socket's address beside the API: ws(s)://<host><api base>/ws/battles. */
function battleSocketUrl(): string {
  return feedSocketUrl(API_BASE, window.location.origin).replace(/\/ws\/drops$/, '/ws/battles');
}

/**
 * While mounted, keeps one /ws/battles socket open (reconnecting with backoff) and refetches the battles
 * its events name: the lobby for every event, one battle for its own. On reconnect everything is refetched,
 * so a missed event never leaves stale state.
 */
export function useBattleEvents(onEvent?: (event: BattleEventMessage) => void): void {
  const client = useQueryClient();
  useEffect(() => {
    let socket: WebSocket | null = null;
    let closed = false;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      if (closed) return;
      socket = new WebSocket(battleSocketUrl());
      socket.onopen = () => {
        failures = 0;
        void client.invalidateQueries({ queryKey: queryKeys.battles });
      };
      socket.onmessage = (message: MessageEvent) => {
        if (typeof message.data !== 'string') return;
        let event: BattleEventMessage;
        try {
          event = JSON.parse(message.data) as BattleEventMessage;
        } catch {
          return;
        }
        if (event.type !== 'battle') return;
        void client.invalidateQueries({ queryKey: queryKeys.battleLobby });
        void client.invalidateQueries({ queryKey: queryKeys.battle(event.id) });
        if (event.event === 'finished') void client.invalidateQueries({ queryKey: queryKeys.battleHistory });
        onEvent?.(event);
      };
      socket.onclose = () => {
        if (closed) return;
        failures += 1;
        retry = setTimeout(connect, Math.min(10_000, 1000 * 2 ** (failures - 1)));
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      if (socket) {
        socket.onclose = null;
        socket.close(1000);
      }
    };
  }, [client, onEvent]);
}
