import { atom } from 'jotai';

/** The case list's tabs, in the spec's order (§2). */
export const CASE_TABS = ['free', 'limited', 'mix', 'allin', 'tickets'] as const;
export type CaseTab = (typeof CASE_TABS)[number];

/** Each tab is a slice of the case list by position: [start, end) as in Array.prototype.slice. */
const TAB_SLICES: Record<CaseTab, readonly [number, number?]> = {
  free: [0],
  limited: [0, 3],
  mix: [3, 6],
  allin: [2, 5],
  tickets: [4, 7],
};

/** The cases a tab shows. */
export function casesOfTab<T>(cases: readonly T[], tab: CaseTab): T[] {
  const [start, end] = TAB_SLICES[tab];
  return cases.slice(start, end);
}

/** The selected tab, kept while the app runs so coming back from a case page lands on the same tab. */
export const caseTabAtom = atom<CaseTab>('free');
