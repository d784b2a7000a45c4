import type { Atom } from 'jotai';
import { atomWithQuery, type AtomWithQueryResult } from 'jotai-tanstack-query';
import type { BetProof, WeightTable } from '../../../contract/fairness.ts';
import { API_BASE } from '../../api';
import { TWO_POW_52 } from '../../lib/fair';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import { compute, type Computation, type Game } from './recompute';

/** Public reads without a session: plain fetch, no sign-in, no token. */
async function publicGet<T>(path: string): Promise<T> {
  const response = await fetch(`${API_BASE}${path}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** A bet's proof recomputed here: the game rolled, the steps, and whether everything matches the record. */
interface BetCheck {
  game: Game;
  result: Computation;
  ok: boolean;
  hashOk: boolean;
}

type BetProofAtom = Atom<AtomWithQueryResult<BetProof, Error>>;
type BetCheckAtom = Atom<AtomWithQueryResult<BetCheck, Error>>;

const proofAtoms = new Map<string, BetProofAtom>();
const checkAtoms = new Map<string, BetCheckAtom>();

/** GET /fairness/bets/{id} → a bet's public proof, one query atom per bet id (created once, then reused). */
export function publicBetAtom(betId: string): BetProofAtom {
  let found = proofAtoms.get(betId);
  if (!found) {
    found = atomWithQuery(() => ({
      queryKey: queryKeys.publicBet(betId),
      queryFn: () => publicGet<BetProof>(`/fairness/bets/${encodeURIComponent(betId)}`),
      retry: false,
    }));
    proofAtoms.set(betId, found);
  }
  return found;
}

/** Recomputes a revealed bet in the browser and compares it with what the server recorded. */
async function checkBet(bet: BetProof, serverSeed: string): Promise<BetCheck> {
  // a wheel spin rolls its prize table exactly as an opening rolls a case's weight table
  const game: Game =
    bet.kind === 'upgrade'
      ? { kind: 'upgrade', numerator: bet.chanceNumerator, denominator: bet.chanceDenominator }
      : { kind: 'case', table: bet.weightTable, totalWeight: bet.totalWeight };
  const result = await compute(serverSeed, bet.clientSeed, bet.nonce, game);
  const hashOk = result.hash === bet.serverSeedHash.toLowerCase();
  let outcomeOk: boolean;
  if (bet.kind === 'wheel') {
    outcomeOk = result.steps.roll === bet.roll && result.picked === bet.segment;
  } else if (bet.kind === 'case') {
    const itemOk = result.picked === null || result.walk![result.picked]!.itemId === bet.item.id;
    outcomeOk = result.steps.roll === bet.roll && itemOk;
  } else {
    outcomeOk = result.success === bet.success && result.steps.roll / TWO_POW_52 === bet.rolled;
  }
  return { game, result, ok: hashOk && outcomeOk, hashOk };
}

/**
 * The recomputation of a bet's proof, one query atom per bet id: it waits for the proof, and runs once
 * the server seed is revealed (keyed by that seed, so a proof answered again with the seed runs it anew).
 */
export function publicBetCheckAtom(betId: string): BetCheckAtom {
  let found = checkAtoms.get(betId);
  if (!found) {
    const proofAtom = publicBetAtom(betId);
    found = atomWithQuery((get) => {
      const bet = get(proofAtom).data;
      const serverSeed = bet?.serverSeed;
      return {
        queryKey: queryKeys.publicBetCheck(betId, serverSeed),
        enabled: !!serverSeed,
        queryFn: () => checkBet(bet!, serverSeed!),
      };
    });
    checkAtoms.set(betId, found);
  }
  return found;
}

/** GET /fairness/bets/{id}, once (the paste form fills itself from it); a failure is shown at once. */
export function fetchPublicBet(betId: string): Promise<BetProof> {
  return queryClient.fetchQuery({
    queryKey: queryKeys.publicBet(betId),
    queryFn: () => publicGet<BetProof>(`/fairness/bets/${encodeURIComponent(betId)}`),
    retry: false,
  });
}

/**
 * GET /fairness/tables/{hash} → a weight table, through the one client. A table is named by the hash of
 * its content, so a table fetched never goes stale; a failure is shown at once, not retried.
 */
export function fetchWeightTable(hash: string): Promise<WeightTable> {
  return queryClient.fetchQuery({
    queryKey: queryKeys.weightTable(hash),
    queryFn: () => publicGet<WeightTable>(`/fairness/tables/${encodeURIComponent(hash)}`),
    staleTime: Infinity,
    retry: false,
  });
}
