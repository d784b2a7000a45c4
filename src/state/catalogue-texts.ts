import { atom, useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Case } from '../../contract/cases.ts';
import { casesAtom } from './queries';

/**
 * The catalogue's texts in the interface language. The server's catalogue answer carries each case's and
 * item's Russian texts (`ru`) beside the English ones; answers that name an item or a case without them
 * (the inventory, the live feed, the history) are translated by id from the catalogue.
 */

interface Named {
  id: string;
  name: string;
  ru?: { name: string };
}

interface RussianTexts {
  items: ReadonlyMap<string, string>;
  cases: ReadonlyMap<string, { name: string; description: string }>;
}

/** Russian names by id, from the cached catalogue (GET /cases). */
const russianTextsAtom = atom((get): RussianTexts => {
  const items = new Map<string, string>();
  const cases = new Map<string, { name: string; description: string }>();
  for (const c of get(casesAtom).data ?? []) {
    cases.set(c.id, c.ru);
    for (const entry of c.items) if (entry.item.ru) items.set(entry.item.id, entry.item.ru.name);
  }
  return { items, cases };
});

export interface CatalogueTexts {
  /** an item's name in the interface language */
  itemName: (item: Named) => string;
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
    (item: Named) => (russian ? (item.ru?.name ?? texts.items.get(item.id) ?? item.name) : item.name),
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
  return useMemo(() => ({ itemName, caseName, caseDescription }), [itemName, caseName, caseDescription]);
}
