/**
 * The seed catalogue: gift items and cases as plain data, money as exact integer nanoTON (DESIGN.md rule 2).
 *
 * Every case lists its items with integer design weights. buildCatalogue(rtp) turns them into drop
 * weights whose expected value is the configured share (return to player) of the case price:
 *
 *   EV = floor(sum(weight_i * price_i) / sum(weight_i)),   |EV / casePrice - rtp| < RTP_TOLERANCE
 *
 * How: the items cheaper than rtp * casePrice (the "low" group) and the rest (the "high" group) each keep
 * their design proportions; the high group's weights stay as designed (times k), the low group's are
 * scaled by the one factor that puts EV on target, rounded, and then the cheapest item's weight is solved
 * exactly to absorb the rounding. If that misses the tolerance, k = 2, 3, … refines the grid. Any rtp
 * strictly between a case's cheapest and dearest item (relative to its price) is reachable. All of it is
 * integer arithmetic, so the same rtp always gives the same weights.
 */

import { NANO_PER_TON, parseTon } from '../../contract/money.ts';

type Rarity = 'common' | 'uncommon' | 'rare' | 'epic' | 'legendary';

/** A catalogue text in Russian, beside the English one (the client shows it in the Russian interface). */
export interface SeedItem {
  id: string;
  name: string;
  /** the name in Russian */
  nameRu: string;
  /** the Russian name's grammatical gender or plural */
  genderRu: RussianGender;
  priceNano: bigint;
  rarity: Rarity;
  /** '/assets/items/<id>.svg' */
  imageUrl: string;
}

export interface SeedCase {
  id: string;
  name: string;
  description: string;
  /** the name and description in Russian */
  nameRu: string;
  descriptionRu: string;
  priceNano: bigint;
  imageUrl: string;
  isActive: boolean;
  isLocked: boolean;
  position: number;
  /** weight: a positive integer; an item's drop chance is weight / sum of the case's weights */
  items: { itemId: string; weight: number }[];
}

/** The return-to-player share used when none is configured. */
export const DEFAULT_RTP = 0.9;

/** The largest allowed |EV / price - rtp| (the solver aims well inside it). */
export const RTP_TOLERANCE = 0.005;

/** What the solver aims for, in parts per million of the case price (well inside RTP_TOLERANCE). */
const SOLVER_TOLERANCE_PPM = 500n;
const PPM = 1_000_000n;

/** Rarity bands by price: < 1 TON common, < 5 uncommon, < 20 rare, < 100 epic, else legendary. */
function rarityForPrice(priceNano: bigint): Rarity {
  if (priceNano < 1n * NANO_PER_TON) return 'common';
  if (priceNano < 5n * NANO_PER_TON) return 'uncommon';
  if (priceNano < 20n * NANO_PER_TON) return 'rare';
  if (priceNano < 100n * NANO_PER_TON) return 'epic';
  return 'legendary';
}

/**
 * The grammatical gender (and number) of an item's Russian name: masculine, feminine, neuter, or plural
 * ("Золотые часы"). Russian texts that carry an item name agree with it (i18next context `m` / `f` / `n` /
 * `p`); tests/unit/russian-agreement.test.ts checks every such text against every item.
 */
export type RussianGender = 'm' | 'f' | 'n' | 'p';

// [id, name, price in TON, name in Russian, its gender]
const ITEM_ROWS: [string, string, string, string, RussianGender][] = [
  ['lollipop', 'Lollipop', '0.1', 'Леденец', 'm'],
  ['candle', 'Candle', '0.15', 'Свеча', 'f'],
  ['flower_pink', 'Pink Flower', '0.2', 'Розовый цветок', 'm'],
  ['clover', 'Lucky Clover', '0.25', 'Счастливый клевер', 'm'],
  ['candy', 'Candy', '0.3', 'Конфета', 'f'],
  ['bell', 'Jingle Bell', '0.35', 'Колокольчик', 'm'],
  ['heart', 'Red Heart', '0.4', 'Красное сердце', 'n'],
  ['icecream', 'Ice Cream', '0.45', 'Мороженое', 'n'],
  ['cupcake', 'Cupcake', '0.5', 'Капкейк', 'm'],
  ['snowflake', 'Snowflake', '0.55', 'Снежинка', 'f'],
  ['star', 'Gold Star', '0.6', 'Золотая звезда', 'f'],
  ['balloon', 'Balloons', '0.75', 'Воздушные шары', 'p'],
  ['rose', 'Red Rose', '0.9', 'Красная роза', 'f'],
  ['ton_balance', 'TON Balance', '1', 'Баланс TON', 'm'],
  ['cap', 'Party Cap', '1.25', 'Праздничный колпак', 'm'],
  ['sunflower', 'Sunflower', '1.5', 'Подсолнух', 'm'],
  ['cake', 'Birthday Cake', '2', 'Праздничный торт', 'm'],
  ['xmas_tree', 'Holiday Tree', '2.5', 'Новогодняя ёлка', 'f'],
  ['teddy_bear', 'Teddy Bear', '3', 'Плюшевый мишка', 'm'],
  ['bouquet', 'Bouquet', '3.5', 'Букет', 'm'],
  ['gift_box', 'Gift Box', '4', 'Подарочная коробка', 'f'],
  ['surfboard', 'Surfboard', '4.5', 'Доска для сёрфинга', 'f'],
  ['ton_stack', 'TON Stack', '5', 'Стопка TON', 'f'],
  ['champagne', 'Champagne', '6', 'Шампанское', 'n'],
  ['potion', 'Magic Potion', '8', 'Волшебное зелье', 'n'],
  ['gem_green', 'Emerald', '10', 'Изумруд', 'm'],
  ['trophy', 'Golden Trophy', '12', 'Золотой кубок', 'm'],
  ['ring', 'Diamond Ring', '15', 'Кольцо с бриллиантом', 'n'],
  ['watch', 'Gold Watch', '18', 'Золотые часы', 'p'],
  ['rocket', 'Rocket', '25', 'Ракета', 'f'],
  ['gem_blue', 'Sapphire', '30', 'Сапфир', 'm'],
  ['diamond', 'Diamond', '45', 'Бриллиант', 'm'],
  ['crown', 'Golden Crown', '60', 'Золотая корона', 'f'],
  ['nft_1', 'NFT Gift #1', '80', 'NFT-подарок №1', 'm'],
  ['golden_egg', 'Golden Egg', '120', 'Золотое яйцо', 'n'],
  ['nft_2', 'NFT Gift #2', '150', 'NFT-подарок №2', 'm'],
  ['ton_chest', 'TON Treasure Chest', '250', 'Сундук с сокровищами TON', 'm'],
  ['moon', 'Golden Moon', '350', 'Золотая луна', 'f'],
  ['sports_car', 'Sports Car', '500', 'Спорткар', 'm'],
  ['yacht', 'Yacht', '1000', 'Яхта', 'f'],
];

export const SEED_ITEMS: SeedItem[] = ITEM_ROWS.map(([id, name, price, nameRu, genderRu]) => {
  const priceNano = parseTon(price);
  return {
    id,
    name,
    nameRu,
    genderRu,
    priceNano,
    rarity: rarityForPrice(priceNano),
    imageUrl: `/assets/items/${id}.svg`,
  };
});

export const SEED_ITEMS_BY_ID: ReadonlyMap<string, SeedItem> = new Map(SEED_ITEMS.map((i) => [i.id, i]));

/** A case as designed; buildCatalogue turns the design weights into drop weights for a given rtp. */
interface CaseDesign {
  id: string;
  name: string;
  description: string;
  /** [name, description] in Russian */
  ru: [string, string];
  price: string;
  isActive?: boolean;
  isLocked?: boolean;
  /** [itemId, design weight], cheapest first */
  items: [string, number][];
}

const CASE_DESIGNS: CaseDesign[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'Sweets, flowers and a chance at a Teddy Bear or a Gift Box. A good first case.',
    ru: [
      'Стартовый',
      'Сладости, цветы и шанс на плюшевого мишку или подарочную коробку. Хороший первый кейс.',
    ],
    price: '0.5',
    items: [
      ['lollipop', 2000],
      ['candle', 1800],
      ['flower_pink', 1600],
      ['clover', 1400],
      ['heart', 1200],
      ['star', 1000],
      ['balloon', 800],
      ['ton_balance', 600],
      ['teddy_bear', 80],
      ['gift_box', 30],
    ],
  },
  {
    id: 'sweet',
    name: 'Sweet Tooth',
    description: 'Candy, cupcakes and cakes, with Champagne and a Diamond Ring at the bottom of the box.',
    ru: ['Сладкоежка', 'Конфеты, капкейки и торты, а на дне коробки — шампанское и кольцо с бриллиантом.'],
    price: '1',
    items: [
      ['lollipop', 2000],
      ['candy', 1800],
      ['icecream', 1500],
      ['cupcake', 1300],
      ['ton_balance', 1500],
      ['cake', 500],
      ['teddy_bear', 250],
      ['gift_box', 120],
      ['champagne', 40],
      ['ring', 8],
    ],
  },
  {
    id: 'flowers',
    name: 'Flower Shop',
    description: 'Fresh flowers and bouquets; the lucky ones find an Emerald or a Diamond Ring.',
    ru: [
      'Цветочная лавка',
      'Свежие цветы и букеты; счастливчикам достаются изумруд или кольцо с бриллиантом.',
    ],
    price: '2.5',
    items: [
      ['flower_pink', 1500],
      ['clover', 1200],
      ['rose', 1800],
      ['ton_balance', 1500],
      ['sunflower', 2000],
      ['teddy_bear', 500],
      ['bouquet', 600],
      ['gift_box', 300],
      ['gem_green', 60],
      ['ring', 20],
    ],
  },
  {
    id: 'surfboard',
    name: 'Surfboard',
    description: 'A summer case: ride the wave to a Gold Watch, a Rocket or a Sapphire.',
    ru: ['Сёрфинг', 'Летний кейс: поймайте волну к золотым часам, ракете или сапфиру.'],
    price: '5',
    items: [
      ['balloon', 2000],
      ['ton_balance', 1800],
      ['sunflower', 1500],
      ['cake', 1300],
      ['teddy_bear', 1100],
      ['gift_box', 900],
      ['surfboard', 500],
      ['ton_stack', 350],
      ['champagne', 250],
      ['watch', 80],
      ['rocket', 30],
      ['gem_blue', 12],
    ],
  },
  {
    id: 'premium',
    name: 'Premium',
    description: 'Gifts for grown-ups: jewels, a Golden Crown and NFT Gift #1.',
    ru: ['Премиум', 'Подарки для взрослых: драгоценности, золотая корона и NFT-подарок №1.'],
    price: '10',
    items: [
      ['ton_balance', 1500],
      ['cake', 1500],
      ['teddy_bear', 1500],
      ['gift_box', 1500],
      ['champagne', 1500],
      ['potion', 1500],
      ['gem_green', 600],
      ['trophy', 400],
      ['ring', 300],
      ['diamond', 60],
      ['crown', 30],
      ['nft_1', 10],
    ],
  },
  {
    id: 'gems',
    name: 'Gem Vault',
    description: 'Emeralds, sapphires and diamonds, with a Golden Egg and NFT Gift #2 locked inside.',
    ru: ['Сокровищница', 'Изумруды, сапфиры и бриллианты, а внутри спрятаны золотое яйцо и NFT-подарок №2.'],
    price: '25',
    items: [
      ['ton_stack', 2000],
      ['potion', 1800],
      ['gem_green', 1500],
      ['ring', 1200],
      ['watch', 1000],
      ['gem_blue', 900],
      ['diamond', 450],
      ['crown', 200],
      ['golden_egg', 30],
      ['nft_2', 12],
    ],
  },
  {
    id: 'royal',
    name: 'Royal Treasury',
    description: 'For high rollers: crowns, NFT gifts, a TON Treasure Chest and a Sports Car.',
    ru: ['Королевская казна', 'Для хайроллеров: короны, NFT-подарки, сундук с сокровищами TON и спорткар.'],
    price: '75',
    items: [
      ['gem_green', 2000],
      ['watch', 1800],
      ['rocket', 1500],
      ['gem_blue', 1300],
      ['diamond', 1100],
      ['crown', 900],
      ['nft_1', 900],
      ['golden_egg', 400],
      ['nft_2', 250],
      ['ton_chest', 80],
      ['moon', 30],
      ['sports_car', 10],
    ],
  },
  {
    id: 'legendary',
    name: 'Legendary',
    description: 'The rarest gifts of all, up to a Yacht. Opens at a later level.',
    ru: ['Легендарный', 'Самые редкие подарки, вплоть до яхты. Откроется на следующем уровне.'],
    price: '100',
    isLocked: true,
    items: [
      ['rocket', 2000],
      ['gem_blue', 1800],
      ['diamond', 1500],
      ['crown', 1200],
      ['nft_1', 1000],
      ['golden_egg', 700],
      ['nft_2', 500],
      ['ton_chest', 150],
      ['moon', 60],
      ['sports_car', 25],
      ['yacht', 6],
    ],
  },
  {
    id: 'holiday',
    name: 'Winter Holiday',
    description: 'A seasonal case of bells, snowflakes and holiday trees. Back next winter.',
    ru: [
      'Зимние праздники',
      'Сезонный кейс с колокольчиками, снежинками и ёлками. Вернётся следующей зимой.',
    ],
    price: '3',
    isActive: false,
    items: [
      ['candle', 1000],
      ['candy', 1000],
      ['bell', 1200],
      ['snowflake', 1400],
      ['cap', 1600],
      ['xmas_tree', 1800],
      ['teddy_bear', 400],
      ['gift_box', 400],
      ['champagne', 300],
      ['ring', 80],
    ],
  },
];

/** floor(sum(weight * price) / sum(weights)) in nanoTON. */
export function expectedValueNano(c: SeedCase, items: ReadonlyMap<string, SeedItem>): bigint {
  let total = 0n;
  let weights = 0n;
  for (const { itemId, weight } of c.items) {
    const item = items.get(itemId);
    if (!item) throw new Error(`case ${c.id}: unknown item ${itemId}`);
    total += BigInt(weight) * item.priceNano;
    weights += BigInt(weight);
  }
  if (weights === 0n) throw new Error(`case ${c.id} has no weight`);
  return total / weights;
}

const absBig = (x: bigint): bigint => (x < 0n ? -x : x);
const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** round(a / b) for b > 0, a >= 0 */
const roundDiv = (a: bigint, b: bigint): bigint => (2n * a + b) / (2n * b);

/**
 * Integer drop weights for one case (see the comment at the top of this file), or null when rtp is out
 * of reach: no item is cheaper than the target EV, or none is at least as dear.
 */
function solveWeights(
  design: readonly number[],
  prices: readonly bigint[],
  casePrice: bigint,
  rtp: number,
): number[] | null {
  const rtpPpm = BigInt(Math.round(rtp * 1_000_000));
  // EV hits the target when sum(w * p) * PPM = target * sum(w)
  const target = rtpPpm * casePrice;
  const isLow = prices.map((p) => p * PPM < target);
  let sHigh = 0n;
  let wHigh = 0n;
  let sLow = 0n;
  let wLow = 0n;
  design.forEach((d, i) => {
    const w = BigInt(d);
    if (isLow[i]) {
      sLow += w * prices[i]!;
      wLow += w;
    } else {
      sHigh += w * prices[i]!;
      wHigh += w;
    }
  });
  if (wLow === 0n || wHigh === 0n) return null;
  // the low group's scale factor f = num / den:  (sHigh + f sLow) * PPM = target * (wHigh + f wLow)
  const num = sHigh * PPM - target * wHigh; // >= 0: every high item is worth at least the target
  const den = target * wLow - sLow * PPM; // > 0: every low item is worth less than the target
  let j = -1; // the cheapest item, which absorbs the rounding
  prices.forEach((p, i) => {
    if (isLow[i] && (j < 0 || p < prices[j]!)) j = i;
  });
  const pj = prices[j]!;

  for (let k = 1n; k <= 1000n; k++) {
    const w = design.map((d, i) =>
      isLow[i] ? (i === j ? 0n : maxBig(1n, roundDiv(BigInt(d) * k * num, den))) : BigInt(d) * k,
    );
    let s = 0n;
    let w0 = 0n;
    w.forEach((wi, i) => {
      s += wi * prices[i]!;
      w0 += wi;
    });
    // (s + x pj) * PPM = target * (w0 + x)  =>  x = (s * PPM - target * w0) / (target - pj * PPM)
    const x0 = (s * PPM - target * w0) / (target - pj * PPM);
    for (const x of [x0, x0 + 1n]) {
      if (x < 1n) continue;
      const sum = s + x * pj;
      const weight = w0 + x;
      if (weight > BigInt(Number.MAX_SAFE_INTEGER)) return null;
      if (absBig(sum * PPM - target * weight) < SOLVER_TOLERANCE_PPM * casePrice * weight) {
        return w.map((wi, i) => Number(i === j ? x : wi));
      }
    }
  }
  return null;
}

/**
 * The cases with integer weights solved so that each case's EV / price is within RTP_TOLERANCE of rtp.
 * Throws if rtp is out of reach for some case (not above its cheapest item, or above its dearest).
 */
export function buildCatalogue(rtp = DEFAULT_RTP): SeedCase[] {
  if (!Number.isFinite(rtp) || rtp <= 0) throw new RangeError(`rtp out of range: ${rtp}`);
  return CASE_DESIGNS.map((d, position) => {
    const casePrice = parseTon(d.price);
    const prices = d.items.map(([itemId]) => {
      const item = SEED_ITEMS_BY_ID.get(itemId);
      if (!item) throw new Error(`case ${d.id}: unknown item ${itemId}`);
      return item.priceNano;
    });
    const weights = solveWeights(
      d.items.map(([, w]) => w),
      prices,
      casePrice,
      rtp,
    );
    if (!weights) throw new RangeError(`case ${d.id}: rtp ${rtp} is out of reach`);
    return {
      id: d.id,
      name: d.name,
      description: d.description,
      nameRu: d.ru[0],
      descriptionRu: d.ru[1],
      priceNano: casePrice,
      imageUrl: `/assets/cases/${d.id}.svg`,
      isActive: d.isActive ?? true,
      isLocked: d.isLocked ?? false,
      position: position + 1,
      items: d.items.map(([itemId], i) => ({ itemId, weight: weights[i]! })),
    };
  });
}

/** The catalogue at the default return-to-player share. */
export const SEED_CASES: SeedCase[] = buildCatalogue(DEFAULT_RTP);
