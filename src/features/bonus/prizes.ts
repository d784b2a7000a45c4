/**
 * Sample prizes of the bonus wheel for the debug scene switcher (the real wheel shows the server's prize
 * table), and the bonus word's letters.
 */

/** Item prizes; their names are translated under bonus.items. */
type PrizeItem = 'rose' | 'cake' | 'ring' | 'teddy' | 'crown' | 'diamond';

export interface WheelPrize {
  id: string;
  imageUrl: string;
  /** A TON prize: its amount, TON as decimal text. */
  ton?: string;
  /** An item prize. */
  item?: PrizeItem;
}

const ITEM_ART: Record<PrizeItem, string> = {
  rose: '/assets/items/rose.svg',
  cake: '/assets/items/cake.svg',
  ring: '/assets/items/ring.svg',
  teddy: '/assets/items/teddy_bear.svg',
  crown: '/assets/items/crown.svg',
  diamond: '/assets/items/diamond.svg',
};

const ton = (amount: string, art: string): WheelPrize => ({
  id: `ton-${amount}`,
  imageUrl: `/assets/items/${art}.svg`,
  ton: amount,
});
const item = (name: PrizeItem): WheelPrize => ({ id: name, imageUrl: ITEM_ART[name], item: name });

/** The 12 segments, segment 0 first (spec §9: 12 segments). */
export const WHEEL_PRIZES: readonly WheelPrize[] = [
  ton('0.1', 'ton_balance'),
  item('rose'),
  ton('0.25', 'ton_balance'),
  item('cake'),
  ton('0.5', 'ton_stack'),
  item('ring'),
  ton('1', 'ton_stack'),
  item('teddy'),
  ton('2', 'ton_chest'),
  item('crown'),
  ton('5', 'ton_chest'),
  item('diamond'),
];

/** The bonus word; the first LETTERS_COLLECTED letters are collected (spec §2: G, I, F active). */
export const BONUS_WORD = ['G', 'I', 'F', 'T', 'O', 'M', 'U', 'S'] as const;
export const LETTERS_COLLECTED = 3;
