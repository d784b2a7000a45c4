import { pickWeighted, seededRandom } from '../shared/random.ts';
import { resolveConfig, type RouletteConfig } from './config.ts';
import type { RoulettePlan } from './plan.ts';

export type TrackPlan = Pick<RoulettePlan, 'items' | 'seed' | 'trackSeed' | 'config'> & {
  /**
   * Index into items of the item the server dropped, put at the stop. Absent: the next play's track, laid
   * out before its answer (RouletteScenePlan.stage), whose stop keeps the card it drew.
   */
  winnerIndex?: number;
};

/** Number of cards on the track: the target length, never below minCopies. */
export function trackLength(config: RouletteConfig): number {
  return Math.max(Math.round(config.targetTrackLength), Math.round(config.minCopies), 2);
}

/** Where the winner sits on the track: stopFromEnd cards before its end. */
export function stopIndex(config: RouletteConfig): number {
  const length = trackLength(config);
  return Math.min(Math.max(length - Math.round(config.stopFromEnd), 0), length - 1);
}

/**
 * The reel's cards as indices into plan.items, derived only from the seed (trackSeed when given): each card
 * is drawn with probability proportional to its item's weight, every item with a weight shows at least once
 * before the winner (when the track has room), and the winner sits at stopIndex(). Every card but the stop
 * depends on the seed and the items alone, not on the winner: a track laid out before the answer with the
 * same seed differs from the play's only at its stop.
 */
export function buildTrack(plan: TrackPlan): number[] {
  const config = resolveConfig(plan.config);
  const count = plan.items.length;
  if (count === 0) throw new Error('buildTrack: the case has no items');
  const winner = plan.winnerIndex;
  if (winner !== undefined && (!Number.isInteger(winner) || winner < 0 || winner >= count)) {
    throw new RangeError(`buildTrack: winnerIndex ${winner} is not an index of ${count} items`);
  }
  let weights = plan.items.map(({ weight = 1 }) => (Number.isFinite(weight) && weight > 0 ? weight : 0));
  let total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) {
    weights = weights.map(() => 1);
    total = count;
  }

  const random = seededRandom(`${plan.trackSeed ?? plan.seed}:track`);
  const stop = stopIndex(config);
  const track = Array.from({ length: trackLength(config) }, () => pickWeighted(weights, total, random));

  // counted without the stop, whose card is the winner's: the other cards do not depend on it
  const copies = new Array<number>(count).fill(0);
  track.forEach((item, at) => {
    if (at !== stop) copies[item]! += 1;
  });
  for (let item = 0; item < count && stop > 0; item++) {
    // an item without a weight (one the case no longer lists) shows only where it lands
    if (copies[item]! > 0 || weights[item] === 0) continue;
    // overwrite a card before the winner whose item has copies to spare, scanning from a seeded start
    const from = Math.floor(random() * stop);
    for (let k = 0; k < stop; k++) {
      const at = (from + k) % stop;
      const current = track[at]!;
      if (copies[current]! > 1) {
        track[at] = item;
        copies[current]! -= 1;
        copies[item]! += 1;
        break;
      }
    }
  }
  if (winner !== undefined) track[stop] = winner;
  return track;
}

/**
 * Where the marker lands inside the winner's card, px from its left edge: uniform over the card, at least
 * edgeMargin of the card width (and never less than 1 px) away from both borders.
 */
export function landingOffset(plan: Pick<RoulettePlan, 'seed' | 'config'>): number {
  const config = resolveConfig(plan.config);
  const margin = Math.max(Math.min(config.edgeMargin, 0.49) * config.itemWidth, 1);
  const random = seededRandom(`${plan.seed}:landing`);
  return margin + random() * Math.max(config.itemWidth - 2 * margin, 0);
}
