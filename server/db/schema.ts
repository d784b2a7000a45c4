import type { ColumnType, Generated } from 'kysely';

/** BIGINT columns come back as bigint from both PGlite and pg (see openDatabase). */
type BigIntColumn = ColumnType<bigint, bigint | number | string, bigint | number | string>;
/** a BIGINT with a database default: optional on insert */
type BigIntDefault = ColumnType<bigint, bigint | number | string | undefined, bigint | number | string>;
/** a BIGINT that may be NULL */
type NullableBigInt = ColumnType<
  bigint | null,
  bigint | number | string | null | undefined,
  bigint | number | string | null
>;
/** a BIGSERIAL key */
type BigSerial = ColumnType<bigint, never, never>;
/** a TIMESTAMPTZ with a default of now() */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: ColumnType<bigint, bigint | string, never>;
  first_name: string;
  last_name: string | null;
  username: string | null;
  photo_url: string | null;
  language_code: string | null;
  is_premium: Generated<boolean>;
  balance_nano: BigIntDefault;
  openings_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the player allowed the bot to write (launch data's allows_write_to_pm, or /start) */
  bot_can_write: Generated<boolean>;
  /** set when Telegram said the player blocked the bot; cleared by /start */
  bot_blocked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Every balance change leaves one row here, in the same transaction as the change. */
interface LedgerTable {
  id: BigSerial;
  user_id: BigIntColumn;
  delta_nano: BigIntColumn;
  balance_after_nano: BigIntColumn;
  /** what moved the money: demo_grant, case_open, sell, deposit_ton, deposit_cryptobot, ... */
  kind: string;
  /** free reference, e.g. the opening id or case id */
  ref: string | null;
  /** unique id from outside (TON transaction hash, invoice id): a replayed credit inserts nothing */
  external_id: string | null;
  created_at: Timestamp;
}

/** Secrets generated on first start and shared by every instance on the same database. */
interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

/** A TEXT key chosen by us (catalogue ids such as 'starter' or 'flower_pink'). */
type TextKey = ColumnType<string, string, never>;

/** Gift items, seeded from the catalogue at start. */
export interface ItemsTable {
  id: TextKey;
  name: string;
  /** the name in Russian ('' until seeded) */
  name_ru: Generated<string>;
  price_nano: BigIntColumn;
  rarity: 'common' | 'uncommon' | 'rare' | 'epic' | 'legendary';
  image_url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Cases, seeded from the catalogue at start; the list is ordered by position. */
export interface CasesTable {
  id: TextKey;
  name: string;
  description: string;
  /** the name and description in Russian ('' until seeded) */
  name_ru: Generated<string>;
  description_ru: Generated<string>;
  price_nano: BigIntColumn;
  image_url: string;
  is_active: Generated<boolean>;
  is_locked: Generated<boolean>;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a case can drop: integer weights; an item's chance is weight / sum of the case's weights. */
interface CaseItemsTable {
  /** `${case_id}:${item_id}` */
  id: TextKey;
  case_id: string;
  item_id: string;
  weight: number;
  /** the order of the entries, which is also the order pickWeighted walks */
  position: Generated<number>;
}

interface InventoryTable {
  user_id: BigIntColumn;
  item_id: string;
  quantity: number;
  updated_at: Timestamp;
  /** when the player last received this item (giveToInventory) */
  acquired_at: Timestamp;
}

/**
 * A player's seed pairs. Exactly one is active per player (a unique partial index); rotating reveals it
 * (active = false, revealed_at set) and starts a new one. The nonce counts the rolls made with the pair.
 */
export interface FairnessSeedsTable {
  id: BigSerial;
  user_id: BigIntColumn;
  server_seed: string;
  server_seed_hash: string;
  client_seed: string;
  nonce: Generated<number>;
  active: Generated<boolean>;
  created_at: Timestamp;
  revealed_at: Date | null;
}

/** One row per case copy opened, with everything needed to re-check the roll. */
interface OpeningsTable {
  id: BigSerial;
  user_id: BigIntColumn;
  case_id: string;
  item_id: string;
  /** the case price paid for this copy */
  price_nano: BigIntColumn;
  /** the ledger row of the debit (one per request: copies opened together share it) */
  ledger_id: BigIntColumn;
  seed_id: BigIntColumn;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  roll: BigIntColumn;
  total_weight: BigIntColumn;
  /** the weight table rolled against (weight_tables.hash); null for openings older than migration 0007 */
  weight_table_hash: ColumnType<string | null, string | null | undefined, never>;
  /** the public bet id: the address of its proof page */
  public_id: string;
  created_at: Timestamp;
}

/** A weight table as rolled against: its canonical text (server/games/proofs.ts), by its hash. */
interface WeightTablesTable {
  hash: string;
  entries: string;
  created_at: Timestamp;
}

/** A player's TON deposit comment ('gc-' + random), issued once and kept. */
interface DepositCommentsTable {
  user_id: ColumnType<bigint, bigint | string, never>;
  comment: string;
  created_at: Timestamp;
}

/** Read positions of the payment watchers, shared by every instance (the TON watcher: last handled lt). */
interface PaymentCursorsTable {
  name: string;
  position: BigIntColumn;
  updated_at: Timestamp;
}

/** A transfer a payment watcher read and did not credit, recorded once (server/payments/ton-watcher.ts). */
interface PaymentSkipsTable {
  /** ton:<transaction hash hex>, or ton:raw:<sha256 of the transaction's JSON> when it has no readable hash */
  external_id: string;
  method: string;
  reason: string;
  /** the transaction as read, JSON with every unsafe character escaped, cut to a few KB */
  detail: string;
  created_at: Timestamp;
}

type DepositInvoiceStatus = 'creating' | 'active' | 'failed' | 'paid';

/** Invoices asked of a provider (Crypto Pay, or the demo provider). */
interface DepositInvoicesTable {
  /** our id (a UUID), sent to the provider as the invoice payload */
  id: string;
  user_id: BigIntColumn;
  /** 'cryptopay' or 'demo' */
  provider: string;
  /** the provider's invoice id, once created */
  provider_invoice_id: string | null;
  asset: string;
  amount_nano: BigIntColumn;
  status: DepositInvoiceStatus;
  url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

type WithdrawalStatus = 'pending' | 'sending' | 'completed' | 'failed';

/** Items a player asked to take out of the game; the items left the inventory when the row was made. */
export interface WithdrawalsTable {
  id: BigSerial;
  user_id: BigIntColumn;
  item_id: string;
  quantity: number;
  status: ColumnType<WithdrawalStatus, WithdrawalStatus | undefined, WithdrawalStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** set when completed or failed */
  resolved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  note: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the bot first started delivering it */
  sending_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** why it failed (a WithdrawalFailure code), null otherwise */
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** units already in the player's Telegram profile */
  delivered_units: Generated<number>;
  /** the delivery worker leaves it alone until then (after a 429, a network error) */
  next_attempt_at: Timestamp;
}

/** An item's Telegram gift: exactly one of a regular gift id (sendGift) and a unique-gift collection. */
interface ItemGiftsTable {
  item_id: string;
  gift_id: string | null;
  collection: string | null;
  updated_at: Timestamp;
}

/** One call of the delivery worker, recorded before it is made (server/telegram/delivery.ts). */
export interface WithdrawalAttemptsTable {
  id: BigSerial;
  withdrawal_id: BigIntColumn;
  unit: number;
  method: 'sendGift' | 'transferGift';
  gift_id: string | null;
  owned_gift_id: string | null;
  outcome: ColumnType<
    'started' | 'delivered' | 'not_delivered' | 'refused',
    'started' | undefined,
    'delivered' | 'not_delivered' | 'refused'
  >;
  /** the bot's Star transaction that paid for a sent gift, once reconciled */
  star_transaction_id: string | null;
  detail: string | null;
  started_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A message to a player, written in the transaction of what it tells (server/telegram/outbox.ts). */
interface BotOutboxTable {
  id: BigSerial;
  user_id: BigIntColumn;
  kind: string;
  params: ColumnType<Record<string, string>, string, string>;
  dedupe_key: string | null;
  status: ColumnType<
    'pending' | 'sending' | 'sent' | 'skipped' | 'failed',
    'pending' | undefined,
    'pending' | 'sending' | 'sent' | 'skipped' | 'failed'
  >;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

interface BotUpdatesTable {
  update_id: BigIntColumn;
  received_at: Timestamp;
}

/** A gift received on the operator's business account (server/telegram/gift-deposits.ts). */
interface GiftDepositsTable {
  owned_gift_id: string;
  kind: string;
  gift_name: string;
  collection: string | null;
  sender_id: NullableBigInt;
  user_id: NullableBigInt;
  item_id: string | null;
  status: 'credited' | 'unknown_sender' | 'not_in_catalogue';
  created_at: Timestamp;
}

/**
 * The stored first answer of a request sent with an Idempotency-Key (per player and key). While the
 * request runs, status_code is 0; the row and the answer commit together with the change.
 */
interface IdempotencyKeysTable {
  user_id: BigIntColumn;
  key: string;
  /** method and path, e.g. 'POST /api/inventory/sell' */
  route: string;
  /** hex SHA-256 of the request body in canonical JSON */
  request_hash: string;
  status_code: number;
  response: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

/** One row per upgrade roll (server/games/upgrade.ts), with everything needed to re-check it. */
interface UpgradesTable {
  id: BigSerial;
  user_id: BigIntColumn;
  stake_item_id: string;
  /** the stake's catalogue price at the time */
  stake_price_nano: BigIntColumn;
  /** the gift aimed at (added to the inventory on success) */
  target_item_id: string;
  target_price_nano: BigIntColumn;
  /** the multiplier in tenths: 15, 20, 30, 50, 100, 200 */
  coef_tenths: number;
  /** chance = chance_numerator / chance_denominator exactly */
  chance_numerator: BigIntColumn;
  chance_denominator: BigIntColumn;
  /** the roll in [0, 1): rollInt(..., 2^52) / 2^52, exact in a double */
  rolled: number;
  success: boolean;
  seed_id: BigIntColumn;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  /** the public bet id: the address of its proof page */
  public_id: string;
  created_at: Timestamp;
}

export type BattleRowStatus = 'open' | 'rolled' | 'settled' | 'cancelled';

/** A case battle (server/games/battles.ts). */
interface BattlesTable {
  id: BigSerial;
  public_id: string;
  creator_id: BigIntColumn;
  format: '1v1' | '1v1v1' | '1v1v1v1' | '2v2';
  seat_count: number;
  mode: 'normal' | 'crazy';
  /** what each seat pays */
  cost_nano: BigIntColumn;
  status: BattleRowStatus;
  server_seed: string;
  server_seed_hash: string;
  public_seed: string | null;
  winner_team: number | null;
  tie_roll: number | null;
  created_at: Timestamp;
  expires_at: Date | string;
  started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** when the rounds have played out and the items are handed over */
  settle_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

interface BattleRoundsTable {
  battle_id: BigIntColumn;
  round: number;
  case_id: string;
  case_price_nano: BigIntColumn;
}

interface BattleSeatsTable {
  battle_id: BigIntColumn;
  seat: number;
  /** null for a house bot */
  user_id: NullableBigInt;
  is_bot: boolean;
  client_seed: string;
  join_index: number;
  ledger_id: NullableBigInt;
  joined_at: Timestamp;
}

interface BattleRollsTable {
  battle_id: BigIntColumn;
  round: number;
  seat: number;
  item_id: string;
  item_price_nano: BigIntColumn;
  roll: BigIntColumn;
  total_weight: BigIntColumn;
  awarded_seat: number | null;
}

/** Who runs a background job now, until when (server/jobs/lease.ts). */
interface JobLeasesTable {
  name: string;
  /** host:pid:random of the instance holding the lease */
  holder: string;
  expires_at: Timestamp;
  acquired_at: Timestamp;
  renewed_at: Timestamp;
}

// ── retention: the daily wheel, rank rewards, promo codes, invites (migration 0013) ─────────────────
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

interface SeedProofColumns {
  seed_id: BigIntColumn;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  roll: BigIntColumn;
  total_weight: BigIntColumn;
}

/** A case opened for free as a prize (a wheel segment, a rank reward). */
interface FreeOpeningsTable extends SeedProofColumns {
  id: BigSerial;
  user_id: BigIntColumn;
  public_id: string;
  source: 'wheel' | 'rank';
  case_id: string;
  case_price_nano: BigIntColumn;
  item_id: string;
  weight_table_hash: string;
  created_at: Timestamp;
}

interface WheelSpinsTable extends SeedProofColumns {
  id: BigSerial;
  user_id: BigIntColumn;
  public_id: string;
  source: 'daily' | 'rank';
  spin_key: string;
  table_hash: string;
  segment: number;
  prize_kind: 'ton' | 'case' | 'none';
  prize_nano: BigIntDefault;
  case_id: string | null;
  free_opening_id: NullableBigInt;
  ledger_id: NullableBigInt;
  created_at: Timestamp;
}

interface RankRewardsTable {
  user_id: BigIntColumn;
  level: number;
  reward_kind: 'spin' | 'ton' | 'case';
  amount_nano: BigIntDefault;
  case_id: string | null;
  ledger_id: NullableBigInt;
  free_opening_id: NullableBigInt;
  spin_id: NullableBigInt;
  created_at: Timestamp;
}

export interface PromoCodesTable {
  code: string;
  kind: 'deposit_percent' | 'credit';
  percent_bp: Generated<number>;
  amount_nano: BigIntDefault;
  max_bonus_nano: NullableBigInt;
  max_uses: number | null;
  uses: Generated<number>;
  expires_at: NullableTimestamp;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface PromoRedemptionsTable {
  code: string;
  user_id: BigIntColumn;
  status: 'pending' | 'credited' | 'expired';
  bonus_nano: BigIntDefault;
  deposit_id: string | null;
  ledger_id: NullableBigInt;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
}

interface InvitesTable {
  invitee_id: BigIntColumn;
  inviter_id: BigIntColumn;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  ledger: LedgerTable;
  app_secrets: AppSecretsTable;
  items: ItemsTable;
  cases: CasesTable;
  case_items: CaseItemsTable;
  inventory: InventoryTable;
  fairness_seeds: FairnessSeedsTable;
  openings: OpeningsTable;
  deposit_comments: DepositCommentsTable;
  payment_cursors: PaymentCursorsTable;
  payment_skips: PaymentSkipsTable;
  deposit_invoices: DepositInvoicesTable;
  withdrawals: WithdrawalsTable;
  idempotency_keys: IdempotencyKeysTable;
  upgrades: UpgradesTable;
  battles: BattlesTable;
  battle_rounds: BattleRoundsTable;
  battle_seats: BattleSeatsTable;
  job_leases: JobLeasesTable;
  battle_rolls: BattleRollsTable;
  weight_tables: WeightTablesTable;
  item_gifts: ItemGiftsTable;
  withdrawal_attempts: WithdrawalAttemptsTable;
  bot_outbox: BotOutboxTable;
  bot_updates: BotUpdatesTable;
  gift_deposits: GiftDepositsTable;
  free_openings: FreeOpeningsTable;
  wheel_spins: WheelSpinsTable;
  rank_rewards: RankRewardsTable;
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  invites: InvitesTable;
}
