import { atom, useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Case, ItemRu } from '../../contract/cases.ts';
import { casesAtom } from './queries';

/**
 * The catalogue's texts in the interface language. The server's catalogue answer carries each case's and
 * item's Russian texts (`ru`) beside the English ones; answers that name an item or a case without them
 * (the inventory, the live feed, the history) are translated by id from the catalogue.
 */

interface Named {
  id: string;
  name: string;
  ru?: { name: string; gender?: RussianGender };
}

/** The grammatical gender (or plural) of an item's Russian name: the i18next context of texts carrying it. */
type RussianGender = NonNullable<ItemRu['gender']>;

interface RussianTexts {
  items: ReadonlyMap<string, { name: string; gender?: RussianGender }>;
  cases: ReadonlyMap<string, { name: string; description: string }>;
}

/** Russian names by id, from the cached catalogue (GET /cases). */
const russianTextsAtom = atom((get): RussianTexts => {
  const items = new Map<string, { name: string; gender?: RussianGender }>();
  const cases = new Map<string, { name: string; description: string }>();
  for (const c of get(casesAtom).data ?? []) {
    cases.set(c.id, c.ru);
    for (const entry of c.items) if (entry.item.ru) items.set(entry.item.id, entry.item.ru);
  }
  return { items, cases };
});

export interface CatalogueTexts {
  /** an item's name in the interface language */
  itemName: (item: Named) => string;
  /**
   * The i18next context a text carrying the item's name takes in the interface language: the Russian name's
   * gender or plural ('m', 'f', 'n', 'p'); undefined in English (and for an item of unknown gender, which
   * then reads the neutral base text).
   */
  itemGender: (item: Named) => RussianGender | undefined;
  /** a case's name in the interface language */
  caseName: (box: Named) => string;
  /** a case's description in the interface language */
  caseDescription: (box: Pick<Case, 'id' | 'description'> & { ru?: { description: string } }) => string;
}

export function useCatalogueTexts(): CatalogueTexts {
  const { i18n } = useTranslation();
  const russian = i18n.resolvedLanguage === 'ru';
  const texts = useAtomValue(russianTextsAtom);
  const itemName = useCallback(
    (item: Named) => (russian ? (item.ru?.name ?? texts.items.get(item.id)?.name ?? item.name) : item.name),
    [russian, texts],
  );
  const itemGender = useCallback(
    (item: Named) => (russian ? (item.ru?.gender ?? texts.items.get(item.id)?.gender) : undefined),
    [russian, texts],
  );
  const caseName = useCallback(
    (box: Named) => (russian ? (box.ru?.name ?? texts.cases.get(box.id)?.name ?? box.name) : box.name),
    [russian, texts],
  );
  const caseDescription = useCallback<CatalogueTexts['caseDescription']>(
    (box) =>
      russian
        ? (box.ru?.description ?? texts.cases.get(box.id)?.description ?? box.description)
        : box.description,
    [russian, texts],
  );
  return useMemo(
    () => ({ itemName, itemGender, caseName, caseDescription }),
    [itemName, itemGender, caseName, caseDescription],
  );
}
