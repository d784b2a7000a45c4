import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import ru from '../../src/i18n/ru.json';
import { SEED_ITEMS, type RussianGender } from '../../server/games/catalogue.ts';

// Russian texts that carry an item's name agree with it: "Свеча потеряна", "Золотые часы потеряны",
// "Мороженое потеряно". A text either has a variant for each gender and for the plural (i18next context
// m / f / n / p, chosen by the item's gender) or is phrased so that nothing in it agrees with the name
// ("Предмет «X» потерян", "Апгрейд: X → Y"). Checked for every text and every item in the catalogue.

/** The placeholders that carry an item's name. */
const ITEM_PLACEHOLDERS = ['item', 'stake', 'target'];
const GENDERS: RussianGender[] = ['m', 'f', 'n', 'p'];

/** Every text of a nested translation object, by its dotted key. */
function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (value && typeof value === 'object')
      for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}

const texts = flatten(ru);
const carriesItem = (text: string) => ITEM_PLACEHOLDERS.some((p) => text.includes(`{{${p}}}`));
/** base keys (without a gender suffix) of every text that carries an item name */
const itemTextKeys = [
  ...new Set([...texts].filter(([, text]) => carriesItem(text)).map(([key]) => key.replace(/_[mfnp]$/, ''))),
];

/**
 * The gender a Russian item name calls for, worked out from the words themselves (independently of the
 * catalogue's own field): an adjective in front of the head noun says it ("Плюшевый мишка": m), else the
 * noun's ending does; the head noun is the last word before a preposition or a tag like TON or №1.
 */
function genderOfName(name: string): RussianGender {
  const words = name.toLowerCase().split(/\s+/);
  const cut = words.findIndex(
    (w, i) => i > 0 && (['с', 'для', 'из', 'в'].includes(w) || /^(ton|№\d+)$/.test(w)),
  );
  const phrase = cut === -1 ? words : words.slice(0, cut);
  const head = phrase[phrase.length - 1]!.split('-').pop()!;
  const adjective = phrase.length > 1 ? phrase[phrase.length - 2]! : head;
  if (/(ые|ие)$/.test(adjective)) return 'p';
  if (/(ый|ой|ий)$/.test(adjective)) return 'm';
  if (/(ая|яя)$/.test(adjective)) return 'f';
  if (/(ое|ее)$/.test(adjective)) return 'n';
  if (/[ая]$/.test(head)) return 'f';
  if (/[оеё]$/.test(head)) return 'n';
  if (/[ыи]$/.test(head)) return 'p';
  return 'm';
}

/** The ending a word agreeing with a subject of this gender takes (past tense, short participle). */
function agreesWith(word: string, gender: RussianGender): boolean {
  const stem = word.replace(/(ся|сь)$/, '');
  switch (gender) {
    case 'm':
      return /[лн]$/.test(stem);
    case 'f':
      return /[лн]а$/.test(stem);
    case 'n':
      return /[лн]о$/.test(stem);
    case 'p':
      return /[лн][иы]$/.test(stem);
  }
}

const words = (text: string) => text.split(/[\s.,!?«»:]+/).filter(Boolean);

const russian = i18next.createInstance();
/** the texts' t, keyed by plain strings (the keys here are found at run time) */
const translate = (key: string, options: Record<string, string>) =>
  (russian.t as unknown as (key: string, options: Record<string, string>) => string)(key, options);
await russian.init({
  lng: 'ru',
  resources: { ru: { translation: ru } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

describe('Russian texts agree with the items they name', () => {
  it('every catalogue item has the grammatical gender its Russian name calls for', () => {
    for (const item of SEED_ITEMS) {
      expect(item.genderRu, `${item.id} "${item.nameRu}"`).toBe(genderOfName(item.nameRu));
    }
  });

  it('finds the texts that carry an item name', () => {
    expect(itemTextKeys).toEqual(
      expect.arrayContaining([
        'upgrade.result.successText',
        'upgrade.result.failureText',
        'fairness.checkItem',
      ]),
    );
  });

  for (const key of itemTextKeys) {
    it(`${key} agrees with every item`, () => {
      const gendered = GENDERS.filter((g) => texts.has(`${key}_${g}`));
      const base = texts.get(key);
      expect(base, `${key} needs a neutral text for an item of unknown gender`).toBeDefined();
      if (gendered.length > 0) {
        expect(gendered, `${key} needs a variant for each gender and the plural`).toEqual(GENDERS);
        // the words that change between the variants are the ones that agree: each takes its gender's ending
        const variants = GENDERS.map((g) => words(texts.get(`${key}_${g}`)!));
        for (const [i, g] of GENDERS.entries()) {
          const changing = variants[i]!.filter((w, at) => variants.some((other) => other[at] !== w));
          expect(changing.length, `${key}_${g}: nothing agrees`).toBeGreaterThan(0);
          for (const w of changing) expect(agreesWith(w, g), `${key}_${g}: "${w}"`).toBe(true);
        }
      }
      // the neutral text (and an ungendered one) names the item through a noun it is set against in quotes,
      // after a colon or beside an arrow: nothing in it agrees with the name itself
      for (const slot of base!.matchAll(/\{\{(item|stake|target)\}\}/g)) {
        const before = base!.slice(0, slot.index);
        const after = base!.slice(slot.index + slot[0].length);
        const neutral =
          /(предмет[а-яё]*|подар[а-яё]*) «$/iu.test(before) || /(:|→) «?$/u.test(before) || /^»? →/u.test(after);
        expect(neutral, `${key}: "${base}" is not neutral around ${slot[0]}`).toBe(true);
      }

      for (const item of SEED_ITEMS) {
        const values = { item: item.nameRu, stake: item.nameRu, target: 'Яхта', context: item.genderRu };
        const text = translate(key, values);
        const expected = (texts.get(gendered.length > 0 ? `${key}_${item.genderRu}` : key) ?? '')
          .replaceAll('{{item}}', item.nameRu)
          .replaceAll('{{stake}}', item.nameRu)
          .replaceAll('{{target}}', 'Яхта');
        expect(text, `${key} with ${item.nameRu}`).toBe(expected);
      }
    });
  }
});
