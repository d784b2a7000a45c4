import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migrations, applied in name order at start (Kysely's Migrator keeps the record and a lock, so several
 * instances starting at once on one Postgres apply each migration once). Never edit a landed migration:
 * add a new one. Plain SQL so PGlite and Postgres run the very same schema.
 */
export const migrations: Record<string, Migration> = {
  '0001_users_ledger': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE users (
          id BIGINT PRIMARY KEY,
          first_name TEXT NOT NULL,
          last_name TEXT,
          username TEXT,
          photo_url TEXT,
          language_code TEXT,
          is_premium BOOLEAN NOT NULL DEFAULT FALSE,
          balance_nano BIGINT NOT NULL DEFAULT 0 CHECK (balance_nano >= 0),
          openings_count INTEGER NOT NULL DEFAULT 0 CHECK (openings_count >= 0),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`
        CREATE TABLE ledger (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          delta_nano BIGINT NOT NULL,
          balance_after_nano BIGINT NOT NULL CHECK (balance_after_nano >= 0),
          kind TEXT NOT NULL,
          ref TEXT,
          external_id TEXT UNIQUE,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX ledger_user_idx ON ledger (user_id, id)`.execute(db);
      await sql`
        CREATE TABLE app_secrets (
          name TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },

  '0002_catalogue': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE items (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          price_nano BIGINT NOT NULL CHECK (price_nano >= 0),
          rarity TEXT NOT NULL CHECK (rarity IN ('common', 'uncommon', 'rare', 'epic', 'legendary')),
          image_url TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`
        CREATE TABLE cases (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          description TEXT NOT NULL DEFAULT '',
          price_nano BIGINT NOT NULL CHECK (price_nano > 0),
          image_url TEXT NOT NULL,
          is_active BOOLEAN NOT NULL DEFAULT TRUE,
          is_locked BOOLEAN NOT NULL DEFAULT FALSE,
          position INTEGER NOT NULL DEFAULT 0,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX cases_position_idx ON cases (position, id)`.execute(db);
      await sql`
        CREATE TABLE case_items (
          id TEXT PRIMARY KEY,
          case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
          item_id TEXT NOT NULL REFERENCES items(id),
          weight INTEGER NOT NULL CHECK (weight > 0),
          position INTEGER NOT NULL DEFAULT 0,
          UNIQUE (case_id, item_id)
        )`.execute(db);
      await sql`
        CREATE TABLE inventory (
          user_id BIGINT NOT NULL REFERENCES users(id),
          item_id TEXT NOT NULL REFERENCES items(id),
          quantity INTEGER NOT NULL CHECK (quantity >= 0),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, item_id)
        )`.execute(db);
      await sql`
        CREATE TABLE fairness_seeds (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          server_seed TEXT NOT NULL,
          server_seed_hash TEXT NOT NULL,
          client_seed TEXT NOT NULL,
          nonce INTEGER NOT NULL DEFAULT 0 CHECK (nonce >= 0),
          active BOOLEAN NOT NULL DEFAULT TRUE,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          revealed_at TIMESTAMPTZ,
          CHECK (active = (revealed_at IS NULL))
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX fairness_seeds_active_idx ON fairness_seeds (user_id) WHERE active`.execute(
        db,
      );
      await sql`CREATE INDEX fairness_seeds_user_idx ON fairness_seeds (user_id, id)`.execute(db);
      await sql`
        CREATE TABLE openings (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          case_id TEXT NOT NULL REFERENCES cases(id),
          item_id TEXT NOT NULL REFERENCES items(id),
          price_nano BIGINT NOT NULL CHECK (price_nano > 0),
          ledger_id BIGINT NOT NULL REFERENCES ledger(id),
          seed_id BIGINT NOT NULL REFERENCES fairness_seeds(id),
          server_seed_hash TEXT NOT NULL,
          client_seed TEXT NOT NULL,
          nonce INTEGER NOT NULL CHECK (nonce >= 0),
          roll BIGINT NOT NULL CHECK (roll >= 0),
          total_weight BIGINT NOT NULL CHECK (total_weight > roll),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          UNIQUE (seed_id, nonce)
        )`.execute(db);
      await sql`CREATE INDEX openings_user_idx ON openings (user_id, id DESC)`.execute(db);
      await sql`CREATE INDEX openings_ledger_idx ON openings (ledger_id)`.execute(db);
    },
  },

  '0003_payments': {
    async up(db: Kysely<unknown>) {
      // One stable text comment per player: a TON transfer carrying it is credited to that player.
      await sql`
        CREATE TABLE deposit_comments (
          user_id BIGINT PRIMARY KEY REFERENCES users(id),
          comment TEXT NOT NULL UNIQUE,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      // Where each payment watcher has read up to (the TON watcher: the last transaction lt it handled).
      await sql`
        CREATE TABLE payment_cursors (
          name TEXT PRIMARY KEY,
          position BIGINT NOT NULL,
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      // Invoices we asked a provider for; the amount to credit is the one stored here, never the webhook's.
      await sql`
        CREATE TABLE deposit_invoices (
          id TEXT PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          provider TEXT NOT NULL,
          provider_invoice_id TEXT,
          asset TEXT NOT NULL,
          amount_nano BIGINT NOT NULL CHECK (amount_nano > 0),
          status TEXT NOT NULL,
          url TEXT,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          paid_at TIMESTAMPTZ
        )`.execute(db);
      await sql`
        CREATE UNIQUE INDEX deposit_invoices_provider_idx
          ON deposit_invoices (provider, provider_invoice_id)
          WHERE provider_invoice_id IS NOT NULL`.execute(db);
      await sql`CREATE INDEX deposit_invoices_user_idx ON deposit_invoices (user_id, created_at)`.execute(db);
    },
  },

  '0004_inventory': {
    async up(db: Kysely<unknown>) {
      // Items on their way out of the game: pending until an operator completes or fails the request
      // (a failed one puts the items back into the inventory).
      await sql`
        CREATE TABLE withdrawals (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          item_id TEXT NOT NULL REFERENCES items(id),
          quantity INTEGER NOT NULL CHECK (quantity > 0),
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          resolved_at TIMESTAMPTZ,
          note TEXT,
          CHECK ((status = 'pending') = (resolved_at IS NULL))
        )`.execute(db);
      await sql`CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, id DESC)`.execute(db);
      await sql`CREATE INDEX withdrawals_pending_idx ON withdrawals (id) WHERE status = 'pending'`.execute(
        db,
      );
      // The first answer to a request sent with an Idempotency-Key, stored in the transaction of its change.
      await sql`
        CREATE TABLE idempotency_keys (
          user_id BIGINT NOT NULL REFERENCES users(id),
          key TEXT NOT NULL,
          route TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          status_code INTEGER NOT NULL,
          response JSONB NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, key)
        )`.execute(db);
    },
  },

  '0005_upgrades': {
    async up(db: Kysely<unknown>) {
      // One row per upgrade roll, with everything needed to re-check it once the seed is revealed.
      // chance = chance_numerator / chance_denominator exactly; rolled = roll / 2^52 (exact in a double).
      await sql`
        CREATE TABLE upgrades (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          stake_item_id TEXT NOT NULL REFERENCES items(id),
          stake_price_nano BIGINT NOT NULL CHECK (stake_price_nano >= 0),
          target_item_id TEXT NOT NULL REFERENCES items(id),
          target_price_nano BIGINT NOT NULL CHECK (target_price_nano >= 0),
          coef_tenths INTEGER NOT NULL CHECK (coef_tenths IN (15, 20, 30, 50, 100, 200)),
          chance_numerator BIGINT NOT NULL CHECK (chance_numerator >= 0),
          chance_denominator BIGINT NOT NULL CHECK (chance_denominator > 0),
          rolled DOUBLE PRECISION NOT NULL CHECK (rolled >= 0 AND rolled < 1),
          success BOOLEAN NOT NULL,
          seed_id BIGINT NOT NULL REFERENCES fairness_seeds(id),
          server_seed_hash TEXT NOT NULL,
          client_seed TEXT NOT NULL,
          nonce INTEGER NOT NULL CHECK (nonce >= 0),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          UNIQUE (seed_id, nonce)
        )`.execute(db);
      await sql`CREATE INDEX upgrades_user_idx ON upgrades (user_id, id DESC)`.execute(db);
    },
  },

  '0007_proofs_that_last': {
    async up(db: Kysely<unknown>) {
      // Every weight table a roll was drawn against, by the hex SHA-256 of its canonical text
      // (server/games/proofs.ts), kept forever so a past opening verifies after the weights change.
      await sql`
        CREATE TABLE weight_tables (
          hash TEXT PRIMARY KEY,
          entries TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      // Openings before this migration did not record their table: null, and the verifier says so.
      await sql`ALTER TABLE openings ADD COLUMN weight_table_hash TEXT REFERENCES weight_tables(hash)`.execute(
        db,
      );
      // A public, unguessable id per bet (the proof page's address); existing rows get one here.
      for (const table of ['openings', 'upgrades']) {
        await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN public_id TEXT`.execute(db);
        await sql`UPDATE ${sql.table(table)} SET public_id = substr(md5(random()::text || id::text || clock_timestamp()::text), 1, 16)`.execute(
          db,
        );
        await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN public_id SET NOT NULL`.execute(db);
        await sql`CREATE UNIQUE INDEX ${sql.raw(table + '_public_id_idx')} ON ${sql.table(table)} (public_id)`.execute(
          db,
        );
      }
    },
  },

  '0008_battles': {
    async up(db: Kysely<unknown>) {
      // A case battle. status: open (waiting for seats), rolled (every round drawn, not yet paid),
      // settled (items handed out), cancelled (seats refunded). One case per round in battle_rounds.
      await sql`
        CREATE TABLE battles (
          id BIGSERIAL PRIMARY KEY,
          public_id TEXT NOT NULL UNIQUE,
          creator_id BIGINT NOT NULL REFERENCES users(id),
          format TEXT NOT NULL CHECK (format IN ('1v1', '1v1v1', '1v1v1v1', '2v2')),
          seat_count INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 4),
          mode TEXT NOT NULL CHECK (mode IN ('normal', 'crazy')),
          cost_nano BIGINT NOT NULL CHECK (cost_nano >= 0),
          status TEXT NOT NULL CHECK (status IN ('open', 'rolled', 'settled', 'cancelled')),
          server_seed TEXT NOT NULL,
          server_seed_hash TEXT NOT NULL,
          public_seed TEXT,
          winner_team INTEGER,
          tie_roll INTEGER,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          expires_at TIMESTAMPTZ NOT NULL,
          started_at TIMESTAMPTZ,
          settle_at TIMESTAMPTZ,
          finished_at TIMESTAMPTZ
        )`.execute(db);
      await sql`CREATE INDEX battles_status_idx ON battles (status, id)`.execute(db);
      await sql`
        CREATE TABLE battle_rounds (
          battle_id BIGINT NOT NULL REFERENCES battles(id),
          round INTEGER NOT NULL CHECK (round BETWEEN 1 AND 10),
          case_id TEXT NOT NULL REFERENCES cases(id),
          case_price_nano BIGINT NOT NULL CHECK (case_price_nano >= 0),
          PRIMARY KEY (battle_id, round)
        )`.execute(db);
      // One row per taken seat: the primary key is what makes a seat impossible to sell twice.
      await sql`
        CREATE TABLE battle_seats (
          battle_id BIGINT NOT NULL REFERENCES battles(id),
          seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
          user_id BIGINT REFERENCES users(id),
          is_bot BOOLEAN NOT NULL DEFAULT FALSE,
          client_seed TEXT NOT NULL,
          join_index INTEGER NOT NULL,
          ledger_id BIGINT REFERENCES ledger(id),
          joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (battle_id, seat),
          UNIQUE (battle_id, join_index),
          CHECK (is_bot = (user_id IS NULL))
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX battle_seats_player_idx ON battle_seats (battle_id, user_id)`.execute(db);
      await sql`CREATE INDEX battle_seats_user_idx ON battle_seats (user_id, battle_id DESC)`.execute(db);
      await sql`
        CREATE TABLE battle_rolls (
          battle_id BIGINT NOT NULL REFERENCES battles(id),
          round INTEGER NOT NULL,
          seat INTEGER NOT NULL,
          item_id TEXT NOT NULL REFERENCES items(id),
          item_price_nano BIGINT NOT NULL CHECK (item_price_nano >= 0),
          roll BIGINT NOT NULL CHECK (roll >= 0),
          total_weight BIGINT NOT NULL CHECK (total_weight > 0),
          awarded_seat INTEGER,
          PRIMARY KEY (battle_id, round, seat)
        )`.execute(db);
      // Wagers by time, for the race leaderboard (sums of ledger rows of some kinds in a period).
      await sql`CREATE INDEX ledger_kind_time_idx ON ledger (kind, created_at)`.execute(db);
      await sql`CREATE INDEX upgrades_time_idx ON upgrades (created_at)`.execute(db);
    },
  },

  '0009_payment_skips_key_expiry': {
    async up(db: Kysely<unknown>) {
      // Transfers into a receiving wallet the watcher read and did not credit (not ours, unreadable, bounced,
      // an absurd amount...): recorded once by their external id, so an operator can look one up, and the
      // watcher moves past it instead of stopping.
      await sql`
        CREATE TABLE payment_skips (
          external_id TEXT PRIMARY KEY,
          method TEXT NOT NULL,
          reason TEXT NOT NULL,
          detail TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      // the idempotency key sweeper deletes by age
      await sql`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`.execute(db);
    },
  },

  '0010_catalogue_in_russian': {
    async up(db: Kysely<unknown>) {
      // The catalogue's texts in Russian beside the English ones; the seed fills them at every start.
      await sql`ALTER TABLE items ADD COLUMN name_ru TEXT NOT NULL DEFAULT ''`.execute(db);
      await sql`ALTER TABLE cases ADD COLUMN name_ru TEXT NOT NULL DEFAULT ''`.execute(db);
      await sql`ALTER TABLE cases ADD COLUMN description_ru TEXT NOT NULL DEFAULT ''`.execute(db);
    },
  },

  '0011_job_leases': {
    async up(db: Kysely<unknown>) {
      // One runner per background job across instances (server/jobs/lease.ts): a row per job names the
      // instance holding it until expires_at (database time); the holder renews it, another instance takes
      // a row past its expiry.
      await sql`
        CREATE TABLE job_leases (
          name TEXT PRIMARY KEY,
          holder TEXT NOT NULL,
          expires_at TIMESTAMPTZ NOT NULL,
          acquired_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          renewed_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },

  '0012_telegram_bot': {
    async up(db: Kysely<unknown>) {
      // Players the bot may write to: launch data's allows_write_to_pm or /start set bot_can_write; a player
      // who blocked the bot gets bot_blocked_at and is skipped until they start it again.
      await sql`ALTER TABLE users ADD COLUMN bot_can_write BOOLEAN NOT NULL DEFAULT FALSE`.execute(db);
      await sql`ALTER TABLE users ADD COLUMN bot_blocked_at TIMESTAMPTZ`.execute(db);
      // An item's Telegram gift: a regular gift id (sendGift, paid in Stars) or a unique-gift collection
      // (base name; an owned gift of it is transferred from the business account). None: not withdrawable.
      await sql`
        CREATE TABLE item_gifts (
          item_id TEXT PRIMARY KEY REFERENCES items(id),
          gift_id TEXT,
          collection TEXT UNIQUE,
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          CHECK ((gift_id IS NULL) <> (collection IS NULL))
        )`.execute(db);
      // Withdrawals are delivered by the bot: pending -> sending -> completed (delivered) or failed (reason).
      await sql`ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_status_check`.execute(db);
      await sql`ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_status_check
        CHECK (status IN ('pending', 'sending', 'completed', 'failed'))`.execute(db);
      await sql`ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_check`.execute(db);
      await sql`ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_resolved_check
        CHECK ((status IN ('pending', 'sending')) = (resolved_at IS NULL))`.execute(db);
      await sql`ALTER TABLE withdrawals ADD COLUMN sending_at TIMESTAMPTZ`.execute(db);
      await sql`ALTER TABLE withdrawals ADD COLUMN failure_reason TEXT`.execute(db);
      await sql`ALTER TABLE withdrawals ADD COLUMN delivered_units INTEGER NOT NULL DEFAULT 0`.execute(db);
      await sql`ALTER TABLE withdrawals ADD COLUMN next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now()`.execute(
        db,
      );
      await sql`CREATE INDEX withdrawals_open_idx ON withdrawals (next_attempt_at, id) WHERE status IN ('pending', 'sending')`.execute(
        db,
      );
      // Every call the delivery worker makes, recorded before it is made: one with outcome 'started' and no
      // answer is reconciled (is the gift still ours? did the Stars go?) before anything is sent again.
      await sql`
        CREATE TABLE withdrawal_attempts (
          id BIGSERIAL PRIMARY KEY,
          withdrawal_id BIGINT NOT NULL REFERENCES withdrawals(id),
          unit INTEGER NOT NULL CHECK (unit >= 0),
          method TEXT NOT NULL CHECK (method IN ('sendGift', 'transferGift')),
          gift_id TEXT,
          owned_gift_id TEXT,
          outcome TEXT NOT NULL DEFAULT 'started'
            CHECK (outcome IN ('started', 'delivered', 'not_delivered', 'refused')),
          star_transaction_id TEXT UNIQUE,
          detail TEXT,
          started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          finished_at TIMESTAMPTZ
        )`.execute(db);
      await sql`CREATE INDEX withdrawal_attempts_withdrawal_idx ON withdrawal_attempts (withdrawal_id, id)`.execute(
        db,
      );
      await sql`CREATE UNIQUE INDEX withdrawal_attempts_owned_idx ON withdrawal_attempts (owned_gift_id)
        WHERE owned_gift_id IS NOT NULL AND outcome IN ('started', 'delivered')`.execute(db);
      // Messages to players, written in the transaction of the change they tell about, sent by one worker.
      await sql`
        CREATE TABLE bot_outbox (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          kind TEXT NOT NULL,
          params JSONB NOT NULL,
          dedupe_key TEXT UNIQUE,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'skipped', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          last_error TEXT,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          sent_at TIMESTAMPTZ
        )`.execute(db);
      await sql`CREATE INDEX bot_outbox_due_idx ON bot_outbox (next_attempt_at, id) WHERE status IN ('pending', 'sending')`.execute(
        db,
      );
      // Updates already handled (Telegram may deliver one twice; several instances share one webhook).
      await sql`
        CREATE TABLE bot_updates (
          update_id BIGINT PRIMARY KEY,
          received_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      // Gifts received on the operator's business account: credited once per owned gift id, or left to
      // the operator (unknown sender, a gift of no catalogue collection).
      await sql`
        CREATE TABLE gift_deposits (
          owned_gift_id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          gift_name TEXT NOT NULL,
          collection TEXT,
          sender_id BIGINT,
          user_id BIGINT REFERENCES users(id),
          item_id TEXT REFERENCES items(id),
          status TEXT NOT NULL CHECK (status IN ('credited', 'unknown_sender', 'not_in_catalogue')),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX gift_deposits_user_idx ON gift_deposits (user_id, created_at)`.execute(db);
    },
  },

  '0013_retention': {
    async up(db: Kysely<unknown>) {
      // A case opening given as a prize (a wheel segment, a rank reward): opened at once, for free, with the
      // player's seed pair like a bought one; the item goes to the inventory.
      await sql`
        CREATE TABLE free_openings (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          public_id TEXT NOT NULL UNIQUE,
          source TEXT NOT NULL CHECK (source IN ('wheel', 'rank')),
          case_id TEXT NOT NULL REFERENCES cases(id),
          case_price_nano BIGINT NOT NULL CHECK (case_price_nano >= 0),
          item_id TEXT NOT NULL REFERENCES items(id),
          seed_id BIGINT NOT NULL REFERENCES fairness_seeds(id),
          server_seed_hash TEXT NOT NULL,
          client_seed TEXT NOT NULL,
          nonce INTEGER NOT NULL CHECK (nonce >= 0),
          roll BIGINT NOT NULL CHECK (roll >= 0),
          total_weight BIGINT NOT NULL CHECK (total_weight > roll),
          weight_table_hash TEXT NOT NULL REFERENCES weight_tables(hash),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          UNIQUE (seed_id, nonce)
        )`.execute(db);
      await sql`CREATE INDEX free_openings_user_idx ON free_openings (user_id, id DESC)`.execute(db);
      // The daily bonus wheel: one spin per player per rolling 24 h ('daily') plus spins won as rank rewards.
      await sql`
        CREATE TABLE wheel_spins (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          public_id TEXT NOT NULL UNIQUE,
          source TEXT NOT NULL CHECK (source IN ('daily', 'rank')),
          -- daily:<player>:<n> (the player's n-th daily spin) or rank:<player>:<level>: one spin each
          spin_key TEXT NOT NULL UNIQUE,
          seed_id BIGINT NOT NULL REFERENCES fairness_seeds(id),
          server_seed_hash TEXT NOT NULL,
          client_seed TEXT NOT NULL,
          nonce INTEGER NOT NULL CHECK (nonce >= 0),
          roll BIGINT NOT NULL CHECK (roll >= 0),
          total_weight BIGINT NOT NULL CHECK (total_weight > roll),
          table_hash TEXT NOT NULL REFERENCES weight_tables(hash),
          segment INTEGER NOT NULL CHECK (segment >= 0),
          prize_kind TEXT NOT NULL CHECK (prize_kind IN ('ton', 'case', 'none')),
          prize_nano BIGINT NOT NULL DEFAULT 0 CHECK (prize_nano >= 0),
          case_id TEXT REFERENCES cases(id),
          free_opening_id BIGINT REFERENCES free_openings(id),
          ledger_id BIGINT REFERENCES ledger(id),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          UNIQUE (seed_id, nonce)
        )`.execute(db);
      await sql`CREATE INDEX wheel_spins_user_idx ON wheel_spins (user_id, source, created_at DESC)`.execute(
        db,
      );
      // A rank's reward, granted once per player and rank (the primary key) the moment the rank is reached.
      await sql`
        CREATE TABLE rank_rewards (
          user_id BIGINT NOT NULL REFERENCES users(id),
          level INTEGER NOT NULL CHECK (level >= 2),
          reward_kind TEXT NOT NULL CHECK (reward_kind IN ('spin', 'ton', 'case')),
          amount_nano BIGINT NOT NULL DEFAULT 0 CHECK (amount_nano >= 0),
          case_id TEXT REFERENCES cases(id),
          ledger_id BIGINT REFERENCES ledger(id),
          free_opening_id BIGINT REFERENCES free_openings(id),
          spin_id BIGINT REFERENCES wheel_spins(id),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, level)
        )`.execute(db);
      // Operator-managed promo codes: a percent bonus on the next deposit, or a fixed credit.
      await sql`
        CREATE TABLE promo_codes (
          code TEXT PRIMARY KEY CHECK (code ~ '^[A-Z0-9_-]{3,32}$'),
          kind TEXT NOT NULL CHECK (kind IN ('deposit_percent', 'credit')),
          percent_bp INTEGER NOT NULL DEFAULT 0 CHECK (percent_bp >= 0 AND percent_bp <= 100000),
          amount_nano BIGINT NOT NULL DEFAULT 0 CHECK (amount_nano >= 0),
          max_bonus_nano BIGINT CHECK (max_bonus_nano > 0),
          max_uses INTEGER CHECK (max_uses > 0),
          uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
          expires_at TIMESTAMPTZ,
          active BOOLEAN NOT NULL DEFAULT TRUE,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          CHECK (max_uses IS NULL OR uses <= max_uses)
        )`.execute(db);
      await sql`
        CREATE TABLE promo_redemptions (
          code TEXT NOT NULL REFERENCES promo_codes(code),
          user_id BIGINT NOT NULL REFERENCES users(id),
          status TEXT NOT NULL CHECK (status IN ('pending', 'credited', 'expired')),
          bonus_nano BIGINT NOT NULL DEFAULT 0 CHECK (bonus_nano >= 0),
          deposit_id TEXT,
          ledger_id BIGINT REFERENCES ledger(id),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          settled_at TIMESTAMPTZ,
          PRIMARY KEY (code, user_id)
        )`.execute(db);
      // at most one code waits for a player's next deposit
      await sql`CREATE UNIQUE INDEX promo_redemptions_pending_idx ON promo_redemptions (user_id)
        WHERE status = 'pending'`.execute(db);
      await sql`INSERT INTO promo_codes (code, kind, percent_bp) VALUES ('GIFTBOOST', 'deposit_percent', 700)
        ON CONFLICT (code) DO NOTHING`.execute(db);
      // Who invited whom: set once, when the invitee signs in for the first time with ref_<inviter>.
      await sql`
        CREATE TABLE invites (
          invitee_id BIGINT PRIMARY KEY REFERENCES users(id),
          inviter_id BIGINT NOT NULL REFERENCES users(id),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          CHECK (inviter_id <> invitee_id)
        )`.execute(db);
      await sql`CREATE INDEX invites_inviter_idx ON invites (inviter_id)`.execute(db);
    },
  },

  '0015_inventory_acquired_at': {
    async up(db: Kysely<unknown>) {
      // When the player last received an item (the inventory's "newest" order): updated_at also moves on
      // a sale or withdrawal, so it cannot say that. Rows from before start at their last change.
      await sql`ALTER TABLE inventory ADD COLUMN acquired_at TIMESTAMPTZ NOT NULL DEFAULT now()`.execute(db);
      await sql`UPDATE inventory SET acquired_at = updated_at`.execute(db);
    },
  },
};
