import type { UpgradeMultiplier, UpgradeRollResponse } from '../../../contract/upgrade.ts';

/**
 * The upgrade screen as plain data and a reducer (spec §2, §4, §5): the choices (multiplier, stake, target,
 * tab), the started flag, and the roll's phases:
 *
 *   idle → rolling (Upgrade pressed: started; the request is out, then the wheel turns to the server's roll)
 *        → result (the wheel told the result: the answer comes in with it; or at once when the request
 *          failed: a failure) → idle (the sheet closes)
 *
 * The server's answer is not state while the wheel turns: the wheel reads it from the roll it is given, so
 * the screen does not render again as the wheel starts.
 *
 * The started flag is set by Upgrade and reset when the multiplier changes or the result sheet closes.
 */

/** The multipliers, in the order of the buttons (spec §9; the same list as the server's). */
export const MULTIPLIERS = [1.5, 2, 3, 5, 10, 20] as const satisfies readonly UpgradeMultiplier[];

/** The spec's odds at x1 (spec §9), shown until the server's configured value has loaded. */
export const SPEC_BASE_CHANCE = 0.39;

type UpgradeTab = 'inventory' | 'target';
type UpgradePhase = 'idle' | 'rolling' | 'result';
export type UpgradeOutcome = 'success' | 'fail';

export interface UpgradeState {
  coef: UpgradeMultiplier | null;
  /** the inventory item staked */
  stakeId: string | null;
  /** the gift picked in 'Desired gift'; null: the server's default target */
  targetId: string | null;
  tab: UpgradeTab;
  started: boolean;
  phase: UpgradePhase;
  /** the server's roll, once the wheel has told it (while it turns, the wheel's roll atom holds it) */
  rolled: number | null;
  /** the chance the roll was played at, from its result on (while it turns, the roll atom's) */
  rollChance: number | null;
  outcome: UpgradeOutcome | null;
  answer: UpgradeRollResponse | null;
  /** why the roll request failed (a failure result) */
  error: string | null;
}

export const INITIAL_STATE: UpgradeState = {
  coef: null,
  stakeId: null,
  targetId: null,
  tab: 'inventory',
  started: false,
  phase: 'idle',
  rolled: null,
  rollChance: null,
  outcome: null,
  answer: null,
  error: null,
};

/**
 * How the result sheet closes: 'back' starts over (no multiplier, no item), 'continue' keeps the
 * multiplier for the next stake, 'repeat' keeps everything to roll again, 'close' keeps the choices too.
 */
export type CloseKind = 'back' | 'continue' | 'repeat' | 'close';

export type UpgradeAction =
  | { type: 'coef'; coef: UpgradeMultiplier }
  | { type: 'stake'; itemId: string }
  | { type: 'stakeGone' }
  | { type: 'target'; itemId: string }
  | { type: 'tab'; tab: UpgradeTab }
  | { type: 'start' }
  /** a roll the player left (or reloaded) before seeing: its result sheet, at once */
  | { type: 'unseen'; answer: UpgradeRollResponse }
  | { type: 'failed'; error: string }
  /** the wheel told the result of this answer */
  | { type: 'resulted'; answer: UpgradeRollResponse }
  | { type: 'close'; kind: CloseKind };

/** Whether the choices can change: not while a roll is out, turning or showing its result. */
export const isBusy = (state: UpgradeState) => state.phase !== 'idle';

export function upgradeReducer(state: UpgradeState, action: UpgradeAction): UpgradeState {
  switch (action.type) {
    case 'coef':
      if (isBusy(state)) return state;
      // tapping the selected multiplier clears it; any change resets the started flag
      return {
        ...state,
        coef: state.coef === action.coef ? null : action.coef,
        targetId: null,
        started: false,
      };
    case 'stake':
      if (isBusy(state)) return state;
      return { ...state, stakeId: state.stakeId === action.itemId ? null : action.itemId, targetId: null };
    case 'stakeGone':
      if (isBusy(state) || state.stakeId === null) return state;
      return { ...state, stakeId: null, targetId: null };
    case 'target':
      if (isBusy(state)) return state;
      return { ...state, targetId: state.targetId === action.itemId ? null : action.itemId };
    case 'tab':
      return { ...state, tab: action.tab };
    case 'start':
      if (state.started || isBusy(state) || state.coef === null || state.stakeId === null) return state;
      return {
        ...state,
        started: true,
        phase: 'rolling',
        rolled: null,
        outcome: null,
        answer: null,
        error: null,
      };
    case 'failed':
      // a failed roll request counts as a failure (spec §8): no roll, a red wheel, the failure sheet
      if (state.phase !== 'rolling') return state;
      return {
        ...state,
        phase: 'result',
        rolled: null,
        rollChance: null,
        outcome: 'fail',
        error: action.error,
      };
    case 'resulted':
      if (state.phase !== 'rolling') return state;
      return {
        ...state,
        phase: 'result',
        rolled: action.answer.rolled,
        rollChance: action.answer.chance,
        outcome: action.answer.success ? 'success' : 'fail',
        answer: action.answer,
      };
    case 'unseen':
      if (isBusy(state)) return state;
      return {
        ...state,
        started: true,
        phase: 'result',
        rolled: action.answer.rolled,
        rollChance: action.answer.chance,
        outcome: action.answer.success ? 'success' : 'fail',
        answer: action.answer,
        error: null,
      };
    case 'close': {
      if (state.phase !== 'result') return state;
      const reset = {
        ...state,
        started: false,
        phase: 'idle' as const,
        rolled: null,
        rollChance: null,
        outcome: null,
        answer: null,
        error: null,
      };
      switch (action.kind) {
        case 'back':
          return { ...reset, coef: null, stakeId: null, targetId: null, tab: 'inventory' };
        case 'continue':
          return { ...reset, stakeId: null, targetId: null, tab: 'inventory' };
        case 'repeat':
        case 'close':
          return reset;
      }
    }
  }
  return state;
}

/** Whether Upgrade may be pressed (spec §5): a multiplier, an item, a target to aim at, and not started. */
export function canUpgrade(
  state: Pick<UpgradeState, 'coef' | 'stakeId' | 'started'>,
  ready: { stakeHeld: boolean; hasTarget: boolean },
): boolean {
  return (
    state.coef !== null && state.stakeId !== null && ready.stakeHeld && ready.hasTarget && !state.started
  );
}

/**
 * The chance the screen shows at rest: the told roll's; else the chosen target's exact chance from the
 * server (base × stake price ÷ target price) once known; else baseChance / coef (0 without a multiplier).
 * While a roll turns, the wheel and the label show the roll's own chance from the roll atom (RollChance).
 */
export function shownChance(state: UpgradeState, baseChance: number, targetChance?: number): number {
  if (state.rollChance !== null) return state.rollChance;
  if (state.coef === null) return 0;
  return targetChance ?? baseChance / state.coef;
}
