import type { WeightTable } from '../../../contract/fairness.ts';
import { rollIntSteps, sha256Hex, TWO_POW_52, upgradeSucceeds } from '../../lib/fair';

/** What a roll is checked against: a case's weight table (or only its total) or an upgrade's chance. */
export type Game =
  | { kind: 'case'; table: WeightTable | null; totalWeight: number }
  | { kind: 'upgrade'; numerator: string; denominator: string };

export interface Computation {
  hash: string;
  steps: Awaited<ReturnType<typeof rollIntSteps>>;
  /** case: the weight walk and the index picked; upgrade: the outcome */
  walk: { itemId: string; name: string | null; from: number; to: number }[] | null;
  picked: number | null;
  success: boolean | null;
}

/** The roll recomputed in this browser, step by step, from the seeds, the nonce and the game. */
export async function compute(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  game: Game,
): Promise<Computation> {
  const hash = await sha256Hex(serverSeed);
  if (game.kind === 'upgrade') {
    const steps = await rollIntSteps(serverSeed, clientSeed, nonce, TWO_POW_52);
    return {
      hash,
      steps,
      walk: null,
      picked: null,
      success: upgradeSucceeds(steps.roll, game.numerator, game.denominator),
    };
  }
  const weights = game.table?.entries.map((e) => e.weight);
  const total = weights ? weights.reduce((a, b) => a + b, 0) : game.totalWeight;
  const steps = await rollIntSteps(serverSeed, clientSeed, nonce, total);
  if (!game.table) return { hash, steps, walk: null, picked: null, success: null };
  let from = 0;
  let picked: number | null = null;
  const walk = game.table.entries.map((entry, i) => {
    const row = { itemId: entry.itemId, name: entry.name, from, to: from + entry.weight };
    if (picked === null && steps.roll < row.to) picked = i;
    from = row.to;
    return row;
  });
  return { hash, steps, walk, picked, success: null };
}
