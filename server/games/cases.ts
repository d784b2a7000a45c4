import type { Selectable } from 'kysely';
import type { Case, Item, ItemRu } from '../../contract/cases.ts';
import { SEED_ITEMS_BY_ID } from './catalogue.ts';
import type { Db } from '../db/index.ts';
import type { CasesTable, ItemsTable } from '../db/schema.ts';
import { formatTon } from '../../contract/money.ts';

/** Reading the catalogue (written at start by seedCatalogue) and turning rows into API shapes. */

export type ItemRow = Selectable<ItemsTable>;

/** An item as a roll reads it: what it shows and records (not the row's own timestamps). */
export type RolledItem = Omit<ItemRow, 'created_at' | 'updated_at'>;

/** The item columns of a case read left-joined to its entries: all null on the one row of a case without any. */
export interface EntryItemColumns {
  weight: number | null;
  id: string | null;
  name: string | null;
  name_ru: string | null;
  price_nano: bigint | null;
  rarity: ItemRow['rarity'] | null;
  image_url: string | null;
}

/** A row's entry (its weight and item), or null on the row of a case without entries. */
export function entryOf(r: EntryItemColumns): { weight: number; item: RolledItem } | null {
  if (r.weight === null || r.id === null) return null;
  return {
    weight: r.weight,
    item: {
      id: r.id,
      name: r.name!,
      name_ru: r.name_ru!,
      price_nano: r.price_nano!,
      rarity: r.rarity!,
      image_url: r.image_url!,
    },
  };
}
type CaseRow = Selectable<CasesTable>;

/** One weighted entry of a case, joined with its item, in the order rolls walk them. */
export interface CaseEntry {
  entryId: string;
  weight: number;
  item: ItemRow;
}

/**
 * An item's Russian texts: its name and, for a catalogue item, the name's grammatical gender (kept in the
 * seed catalogue, which is where the names come from), so Russian sentences can agree with it.
 */
export function russianName(id: string, nameRu: string): ItemRu {
  const gender = SEED_ITEMS_BY_ID.get(id)?.genderRu;
  return gender ? { name: nameRu, gender } : { name: nameRu };
}

/** An item row as the API shows it; a row read without its Russian name (an older select) answers without `ru`. */
export function toApiItem(
  row: Pick<ItemRow, 'id' | 'name' | 'price_nano' | 'image_url' | 'rarity'> & { name_ru?: string },
): Item {
  return {
    id: row.id,
    name: row.name,
    ...(row.name_ru ? { ru: russianName(row.id, row.name_ru) } : {}),
    price: formatTon(row.price_nano),
    imageUrl: row.image_url,
    imageBase64: null,
    rarity: row.rarity,
  };
}

function toApiCase(row: CaseRow, entries: readonly CaseEntry[]): Case {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // unseeded rows (no Russian yet) show the English text in both languages
    ru: { name: row.name_ru || row.name, description: row.description_ru || row.description },
    price: formatTon(row.price_nano),
    imageUrl: row.image_url,
    imageBase64: null,
    isActive: row.is_active,
    isLocked: row.is_locked,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    items: entries.map((e) => ({
      id: e.entryId,
      dropChance: e.weight / total,
      weight: e.weight,
      item: toApiItem(e.item),
    })),
  };
}

/** A case entry's weight and its item, as every reader of case entries selects them (case_items as ci, items as i). */
const ENTRY_COLUMNS = [
  'ci.weight',
  'i.id',
  'i.name',
  'i.name_ru',
  'i.price_nano',
  'i.rarity',
  'i.image_url',
  'i.created_at',
  'i.updated_at',
] as const;

/** The weighted entries of the given cases, keyed by case id, each list in roll order. */
export async function loadEntries(db: Db, caseIds: readonly string[]): Promise<Map<string, CaseEntry[]>> {
  const byCase = new Map<string, CaseEntry[]>(caseIds.map((id) => [id, []]));
  if (caseIds.length === 0) return byCase;
  const rows = await db
    .selectFrom('case_items as ci')
    .innerJoin('items as i', 'i.id', 'ci.item_id')
    .select(['ci.id as entry_id', 'ci.case_id', ...ENTRY_COLUMNS])
    .where('ci.case_id', 'in', caseIds)
    .orderBy('ci.case_id')
    .orderBy('ci.position')
    .orderBy('ci.id')
    .execute();
  for (const r of rows) {
    const { entry_id, case_id, weight, ...item } = r;
    byCase.get(case_id)?.push({ entryId: entry_id, weight, item });
  }
  return byCase;
}

/** Every case, in catalogue order (inactive and locked ones included: the client shows them as such). */
export async function listCases(db: Db): Promise<Case[]> {
  const rows = await db.selectFrom('cases').selectAll().orderBy('position').orderBy('id').execute();
  const entries = await loadEntries(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toApiCase(r, entries.get(r.id) ?? []));
}

/** One case with its items, or null when there is no such case. */
export async function findCase(db: Db, id: string): Promise<Case | null> {
  const row = await db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const entries = await loadEntries(db, [id]);
  return toApiCase(row, entries.get(id) ?? []);
}
