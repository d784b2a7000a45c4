import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { SEED_ITEMS, buildCatalogue, type SeedCase, type SeedItem } from './catalogue.ts';

/** Any constant: every instance takes the same transaction-level advisory lock while it seeds. */
const SEED_LOCK_KEY = 0x6769_6674; // 'gift'

/**
 * Writes the catalogue into the database: items, cases and their weighted entries, as upserts, so a
 * restart with changed seed data updates names, prices and weights in place and a restart without
 * changes writes nothing (updated_at moves only when something changed).
 *
 * The seed is the source of truth for what it names: a case entry it no longer lists is deleted, and a
 * case it no longer lists is deactivated (its openings keep pointing at it). Items are never deleted:
 * inventories and openings refer to them.
 *
 * One transaction under an advisory lock, so instances starting at once on one Postgres seed one after
 * the other and every reader sees either the old catalogue or the new one, never a mix.
 */
export async function seedCatalogue(
  db: Db,
  rtp: number,
  data: { items: readonly SeedItem[]; cases: readonly SeedCase[] } = {
    items: SEED_ITEMS,
    cases: buildCatalogue(rtp),
  },
): Promise<void> {
  checkSeed(data.items, data.cases);
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);

    await trx
      .insertInto('items')
      .values(
        data.items.map((i) => ({
          id: i.id,
          name: i.name,
          name_ru: i.nameRu,
          price_nano: i.priceNano,
          rarity: i.rarity,
          image_url: i.imageUrl,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            name_ru: eb.ref('excluded.name_ru'),
            price_nano: eb.ref('excluded.price_nano'),
            rarity: eb.ref('excluded.rarity'),
            image_url: eb.ref('excluded.image_url'),
            updated_at: sql<Date>`now()`,
          }))
          .where(
            sql<boolean>`(items.name, items.name_ru, items.price_nano, items.rarity, items.image_url)
              IS DISTINCT FROM (excluded.name, excluded.name_ru, excluded.price_nano, excluded.rarity, excluded.image_url)`,
          ),
      )
      .execute();

    await trx
      .insertInto('cases')
      .values(
        data.cases.map((c) => ({
          id: c.id,
          name: c.name,
          description: c.description,
          name_ru: c.nameRu,
          description_ru: c.descriptionRu,
          price_nano: c.priceNano,
          image_url: c.imageUrl,
          is_active: c.isActive,
          is_locked: c.isLocked,
          position: c.position,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            description: eb.ref('excluded.description'),
            name_ru: eb.ref('excluded.name_ru'),
            description_ru: eb.ref('excluded.description_ru'),
            price_nano: eb.ref('excluded.price_nano'),
            image_url: eb.ref('excluded.image_url'),
            is_active: eb.ref('excluded.is_active'),
            is_locked: eb.ref('excluded.is_locked'),
            position: eb.ref('excluded.position'),
            updated_at: sql<Date>`now()`,
          }))
          .where(
            sql<boolean>`(cases.name, cases.description, cases.name_ru, cases.description_ru, cases.price_nano,
                          cases.image_url, cases.is_active, cases.is_locked, cases.position)
              IS DISTINCT FROM (excluded.name, excluded.description, excluded.name_ru, excluded.description_ru,
                                excluded.price_nano, excluded.image_url, excluded.is_active, excluded.is_locked,
                                excluded.position)`,
          ),
      )
      .execute();

    const seededIds = data.cases.map((c) => c.id);
    // cases the seed dropped stay (openings refer to them) but can no longer be opened
    await trx
      .updateTable('cases')
      .set({ is_active: false, updated_at: sql<Date>`now()` })
      .where('id', 'not in', seededIds)
      .where('is_active', '=', true)
      .execute();

    const entries = data.cases.flatMap((c) =>
      c.items.map((e, position) => ({
        id: `${c.id}:${e.itemId}`,
        case_id: c.id,
        item_id: e.itemId,
        weight: e.weight,
        position,
      })),
    );
    const deleted = await trx
      .deleteFrom('case_items')
      .where('case_id', 'in', seededIds)
      .where(
        'id',
        'not in',
        entries.map((e) => e.id),
      )
      .returning('case_id')
      .execute();
    const upserted = await trx
      .insertInto('case_items')
      .values(entries)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({ weight: eb.ref('excluded.weight'), position: eb.ref('excluded.position') }))
          .where(
            sql<boolean>`(case_items.weight, case_items.position)
              IS DISTINCT FROM (excluded.weight, excluded.position)`,
          ),
      )
      .returning('case_id')
      .execute();
    // a change to a case's entries is a change to the case
    const touched = [...new Set([...deleted, ...upserted].map((r) => r.case_id))];
    if (touched.length > 0) {
      await trx
        .updateTable('cases')
        .set({ updated_at: sql<Date>`now()` })
        .where('id', 'in', touched)
        .execute();
    }
  });
}

/** Refuses seed data the database would take but the game could not use. */
function checkSeed(items: readonly SeedItem[], cases: readonly SeedCase[]): void {
  const itemIds = new Set(items.map((i) => i.id));
  if (itemIds.size !== items.length) throw new Error('seed: duplicate item id');
  if (new Set(cases.map((c) => c.id)).size !== cases.length) throw new Error('seed: duplicate case id');
  for (const c of cases) {
    if (c.priceNano <= 0n) throw new Error(`seed: case ${c.id} must have a positive price`);
    if (c.items.length === 0) throw new Error(`seed: case ${c.id} has no items`);
    const seen = new Set<string>();
    for (const e of c.items) {
      if (!itemIds.has(e.itemId)) throw new Error(`seed: case ${c.id} lists unknown item ${e.itemId}`);
      if (seen.has(e.itemId)) throw new Error(`seed: case ${c.id} lists item ${e.itemId} twice`);
      seen.add(e.itemId);
      if (!Number.isInteger(e.weight) || e.weight < 1 || e.weight > 2 ** 31 - 1) {
        throw new Error(`seed: case ${c.id} item ${e.itemId} has weight ${e.weight}`);
      }
    }
  }
}
