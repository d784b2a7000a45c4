import { describe, expect, it } from 'vitest';
import { UPGRADE_MULTIPLIERS, type UpgradeRollResponse } from '../../contract/upgrade.ts';
import {
  INITIAL_STATE,
  MULTIPLIERS,
  canUpgrade,
  shownChance,
  upgradeReducer,
  type UpgradeAction,
  type UpgradeState,
} from '../../src/features/upgrade/model.ts';

const run = (actions: UpgradeAction[], from: UpgradeState = INITIAL_STATE) =>
  actions.reduce(upgradeReducer, from);
const ready = { stakeHeld: true, hasTarget: true };

const item = (id: string, price: string) => ({
  id,
  name: id,
  price,
  imageUrl: `/assets/items/${id}.svg`,
  imageBase64: null,
  rarity: 'common' as const,
});

function answer(success: boolean): UpgradeRollResponse {
  return {
    upgradeId: '1',
    betId: 'bet1',
    success,
    rolled: success ? 0.1 : 0.9,
    chance: 0.26,
    coef: 1.5,
    proof: { serverSeedHash: 'h', clientSeed: 'c', nonce: 0, chanceNumerator: '13', chanceDenominator: '50' },
    stake: item('cake', '2'),
    target: item('teddy_bear', '3'),
    result: success ? item('teddy_bear', '3') : null,
  };
}

describe('the upgrade screen model', () => {
  it('offers the server multipliers, in order', () => {
    expect(MULTIPLIERS).toEqual(UPGRADE_MULTIPLIERS);
  });

  it('clears the multiplier when the selected one is tapped again', () => {
    const one = run([{ type: 'coef', coef: 2 }]);
    expect(one.coef).toBe(2);
    expect(run([{ type: 'coef', coef: 5 }], one).coef).toBe(5);
    expect(run([{ type: 'coef', coef: 2 }], one).coef).toBeNull();
  });

  it('enables Upgrade only with a multiplier, an item, a target, and not started', () => {
    expect(canUpgrade(INITIAL_STATE, ready)).toBe(false);
    const coefOnly = run([{ type: 'coef', coef: 3 }]);
    expect(canUpgrade(coefOnly, ready)).toBe(false);
    const itemOnly = run([{ type: 'stake', itemId: 'cake' }]);
    expect(canUpgrade(itemOnly, ready)).toBe(false);
    const both = run([{ type: 'stake', itemId: 'cake' }], coefOnly);
    expect(canUpgrade(both, ready)).toBe(true);
    expect(canUpgrade(both, { stakeHeld: false, hasTarget: true })).toBe(false);
    expect(canUpgrade(both, { stakeHeld: true, hasTarget: false })).toBe(false);
    const started = run([{ type: 'start' }], both);
    expect(started.started).toBe(true);
    expect(canUpgrade(started, ready)).toBe(false);
    // a second press while started does nothing
    expect(run([{ type: 'start' }], started)).toBe(started);
  });

  it('sets started on Upgrade and resets it when the multiplier changes or the result closes', () => {
    const chosen = run([
      { type: 'coef', coef: 1.5 },
      { type: 'stake', itemId: 'cake' },
    ]);
    const started = run([{ type: 'start' }], chosen);
    // from the tap the roll is under way: the request, then the wheel's turn
    expect(started).toMatchObject({ started: true, phase: 'rolling', rolled: null, outcome: null });
    // the multiplier resets the flag whenever it may change (idle)
    expect(run([{ type: 'coef', coef: 2 }], { ...started, phase: 'idle' }).started).toBe(false);
    // the choices hold still while the roll is under way
    expect(run([{ type: 'coef', coef: 2 }], started)).toBe(started);
    expect(run([{ type: 'stake', itemId: 'rose' }], started)).toBe(started);

    // the answer comes in with the result the wheel tells
    const result = run([{ type: 'resulted', answer: answer(true) }], started);
    expect(result).toMatchObject({
      phase: 'result',
      rolled: 0.1,
      outcome: 'success',
      started: true,
    });
    // a result told again (or with no roll under way) changes nothing
    expect(run([{ type: 'resulted', answer: answer(false) }], result)).toBe(result);
    expect(run([{ type: 'resulted', answer: answer(true) }], chosen)).toBe(chosen);
    const closed = run([{ type: 'close', kind: 'close' }], result);
    expect(closed).toMatchObject({ started: false, phase: 'idle', rolled: null, outcome: null, coef: 1.5 });
  });

  it('treats a failed roll request as a failure, with no roll', () => {
    const started = run([{ type: 'coef', coef: 2 }, { type: 'stake', itemId: 'cake' }, { type: 'start' }]);
    const failed = run([{ type: 'failed', error: 'offline' }], started);
    expect(failed).toMatchObject({ phase: 'result', outcome: 'fail', rolled: null, error: 'offline' });
  });

  it('closes the sheet as Back, Continue or Repeat', () => {
    const result = run([
      { type: 'coef', coef: 3 },
      { type: 'stake', itemId: 'cake' },
      { type: 'target', itemId: 'bouquet' },
      { type: 'start' },
      { type: 'resulted', answer: answer(false) },
    ]);
    expect(run([{ type: 'close', kind: 'back' }], result)).toMatchObject({
      coef: null,
      stakeId: null,
      targetId: null,
    });
    expect(run([{ type: 'close', kind: 'continue' }], result)).toMatchObject({ coef: 3, stakeId: null });
    expect(run([{ type: 'close', kind: 'repeat' }], result)).toMatchObject({
      coef: 3,
      stakeId: 'cake',
      targetId: 'bouquet',
      started: false,
    });
  });

  it('shows baseChance / coef, or the chance the roll was played at once it has been told', () => {
    expect(shownChance(INITIAL_STATE, 0.39)).toBe(0);
    expect(shownChance(run([{ type: 'coef', coef: 3 }]), 0.39)).toBeCloseTo(0.13, 12);
    const told = run([
      { type: 'coef', coef: 1.5 },
      { type: 'stake', itemId: 'cake' },
      { type: 'start' },
      { type: 'resulted', answer: answer(true) },
    ]);
    expect(shownChance(told, 0.5)).toBe(0.26);
  });
});
