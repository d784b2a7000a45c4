import { atom, useAtomValue, useStore, type Atom } from 'jotai';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { OpenResult } from '../../../contract/cases.ts';
import { tryParseTon } from '../../../contract/money.ts';
import type { RouletteItem, RouletteReel } from '../../../scenes/roulette';
import { apiErrorText } from '../../lib/api-error';
import {
  hapticImpact,
  hapticNotification,
  lockVerticalSwipes,
  prepareVerticalSwipeLock,
} from '../../lib/haptics';
import { preloadSounds, preloadSoundsIfAllowed } from '../../lib/sound';
import { scenesRunInWorker } from '../../lib/scene/runtime';
import { afterTap } from '../../lib/ui/after-tap';
import { applyBalance, applyBalanceLater, openCaseCopies, openCaseOnce } from '../../state/cases';
import { runMoneyAction } from '../../lib/money-action';
import { holdOwnDrops, type OwnDropHold } from '../../state/feed';
import { holdBalance } from '../../state/live';
import { meAtom, showPaymentAtom } from '../../state/queries';
import { keepUnseen, markSeen, readUnseen } from '../../state/unseen';
import { buildReels } from './model';

/**
 * Case opening (spec §4): idle → opening (the request is out; controls are busy) → spinning (the roulette,
 * normal open only) → finished (the win screen). 'Keep it' fades the win screen out and goes back to idle.
 */
type OpeningPhase = 'idle' | 'opening' | 'spinning' | 'finished';
type OpeningMode = 'normal' | 'quick';

interface OpeningState {
  phase: OpeningPhase;
  mode: OpeningMode;
  /** copies asked for */
  count: number;
  /** what the server dropped, one per copy opened */
  results: OpenResult[];
  /** the win screen is fading out */
  closing: boolean;
}

const IDLE: OpeningState = {
  phase: 'idle',
  mode: 'normal',
  count: 1,
  results: [],
  closing: false,
};

/** How long 'Keep it' takes to fade the win screen out before going back to idle, ms (spec §4: ~0.3 s). */
const KEEP_FADE_MS = 300;
/** A short pause between the reels landing and the win screen, so the landing can be seen, ms. */
const WIN_PAUSE_MS = 450;

/** Most reels an opening plays (x3). */
const MAX_REELS = 3;

/** Track seeds for the next opening's reels: random, chosen before its tap (see RouletteScenePlan.stage). */
function freshTrackSeeds(): string[] {
  const words = crypto.getRandomValues(new Uint32Array(MAX_REELS * 2));
  return Array.from(
    { length: MAX_REELS },
    (_, i) => `${words[2 * i]!.toString(36)}.${words[2 * i + 1]!.toString(36)}`,
  );
}

/** Runs `task` in a task of its own once two frames have been drawn (the reels' first ones). */
function afterFirstFrames(task: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(task, 0)));
}

/**
 * The message an open failure shows: when to try again after a rate limit, the server's, or the
 * translated 'Error opening case' (spec §8).
 */
function openErrorMessage(error: unknown, fallback: string): string {
  return apiErrorText(error, fallback);
}

export interface CaseOpening {
  state: OpeningState;
  /**
   * The reels of the normal open under way (one per result), empty otherwise: set the moment the server
   * answers, so the roulette starts from the answer without waiting for the screen to render.
   */
  reels: Atom<readonly RouletteReel[]>;
  /**
   * The track seeds of the next normal open's reels (one per possible reel, top to bottom): the roulette
   * lays their strips out and stages them while it waits for the tap; the answer's reels take them, and a
   * new set is drawn for the opening after.
   */
  trackSeeds: Atom<readonly string[]>;
  /**
   * Pays for `count` copies and plays the roulette (one request: POST /cases/open-multiple); `after`, the
   * win an Open again follows, makes it an intent of its own.
   */
  open(count: number, pieces: readonly RouletteItem[], after?: string): void;
  /** Pays for `count` copies one POST /cases/open after the other and shows the win screen. */
  quickOpen(count: number, after?: string): void;
  /** The roulette has landed every reel. */
  spinDone(): void;
  /** 'Keep it': fade out, then idle. */
  keep(): void;
  /** The win screen's Open again: from the win straight into the opening `start` begins, once per win. */
  again(start: () => void): void;
}

/**
 * The opening state machine of one case page: the case `caseId` at `price` (TON, API text) a copy.
 * `errorText` is shown (with `alert`, spec §8) when a failed open carries no message of its own.
 */
export function useCaseOpening(caseId: string, price: string, errorText: string): CaseOpening {
  const [state, setState] = useState<OpeningState>(IDLE);
  const store = useStore();
  const [reels] = useState(() => atom<readonly RouletteReel[]>([]));
  const [trackSeeds] = useState(() => atom<readonly string[]>(freshTrackSeeds()));
  // a second tap while a request is out must not pay twice
  const busy = useRef(false);
  // the win screen is up: its Open again may start the next opening (once)
  const finished = useRef(false);
  // the current spin has already been told it ended (the roulette and the watchdog may both say so)
  const spinEnded = useRef(false);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  // the player's own drops stay off their feed until the win screen shows (no spoiler)
  const hold = useRef<OwnDropHold | null>(null);
  const releaseDrops = useCallback(() => {
    hold.current?.release();
    hold.current = null;
  }, []);
  // the socket's balance pushes wait from the tap until the reels move (see open)
  const balanceHold = useRef<(() => void) | null>(null);
  const releaseBalance = useCallback(() => {
    balanceHold.current?.();
    balanceHold.current = null;
  }, []);
  // the answer's balance, and what depends on it, applied once the reels have landed (or the page goes)
  const answeredBalance = useRef<(() => void) | null>(null);
  const applyAnswer = useCallback(() => {
    answeredBalance.current?.();
    answeredBalance.current = null;
  }, []);

  const later = useCallback((fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      fn();
    }, ms);
    timers.current.add(timer);
  }, []);

  // the roulette's ticks and the win sound load with the page (when it may start audio), not at the tap
  useEffect(preloadSoundsIfAllowed, []);
  // and the swipe lock is readied with it, so that locking swipes as the reels start costs one message
  useEffect(prepareVerticalSwipeLock, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      releaseDrops();
      releaseBalance();
      applyAnswer();
    };
  }, [releaseDrops, releaseBalance, applyAnswer]);

  const reset = useCallback(() => {
    busy.current = false;
    finished.current = false;
    store.set(reels, []);
    setState(IDLE);
  }, [store, reels]);

  const fail = useCallback(
    (error: unknown) => {
      console.error('Case opening failed', error);
      hapticNotification('error');
      window.alert(openErrorMessage(error, errorText));
    },
    [errorText],
  );

  // the win screen plays its own sound, as big as the win (WinScreen)
  const win = useCallback(() => {
    finished.current = true;
    hapticNotification('success');
  }, []);

  /**
   * The win screen's Open again: from the win straight into a new opening started by `start` (open or
   * quickOpen), once per win screen however many taps reach it.
   */
  const again = useCallback(
    (start: () => void) => {
      if (!finished.current) return;
      finished.current = false;
      busy.current = false;
      store.set(reels, []);
      start();
    },
    [store, reels],
  );

  const open = useCallback(
    (count: number, pieces: readonly RouletteItem[], after?: string) => {
      if (busy.current) return;
      // one tap, one opening: the same intent again after a lost answer reuses its Idempotency-Key (an
      // Open again names the win it follows: a new intent, however soon after the last one)
      const intent = `case:open:${caseId}:${count}${after ? `:after:${after}` : ''}`;
      const request = runMoneyAction('case', intent, (key) => openCaseCopies(caseId, count, key));
      if (!request) return;
      busy.current = true;
      spinEnded.current = false;
      // own drops are held off the feed from before the request leaves until the win screen shows
      releaseDrops();
      hold.current = holdOwnDrops();
      // the price shows paid from the tap, with the screen's own update for it: the header and the controls
      // render then, not again as the reels start (the answer's balance is the same) nor mid-spin. The new
      // balance the socket pushes as the answer comes is held until the reels move (and a push during the
      // spin waits for its end, as ever): it says the same, or more than the screen should tell yet
      releaseBalance();
      const balanceShows = holdBalance();
      balanceHold.current = balanceShows;
      const unit = tryParseTon(price);
      const paid = unit === null ? null : unit * BigInt(count);
      // the request leaves first: the screen's re-render comes after it (in the tap's next frame, see
      // afterTap) and the sounds' start once the reels move, not between the tap and the request, where a
      // slow phone would wait on them
      hapticImpact('medium');
      const opening = afterTap(() => {
        setState({ ...IDLE, phase: 'opening', mode: 'normal', count });
        if (paid !== null) store.set(showPaymentAtom, paid);
      });
      void (async () => {
        try {
          const answer = await request;
          // the screen's updates keep their order: 'opening' before the answer's
          opening();
          // paid and won: kept until the win screen shows, so leaving or reloading mid-spin loses nothing
          keepUnseen('case', caseId, answer.results);
          // the reels first: the roulette starts from here, the screen's render follows
          store.set(reels, buildReels(pieces, answer.results, store.get(trackSeeds)));
          // the next opening's (read by the roulette only once no reel plays)
          store.set(trackSeeds, freshTrackSeeds());
          hold.current?.answered(answer.results.map((r) => r.openingId));
          // the answer's balance replaces the payment shown at the tap (the same amount: nothing renders),
          // and what depends on it is refreshed, once the reels have landed: cancelling the balance's
          // fetches and invalidating queries is main-thread work neither the reels' start nor their spin
          // needs (a push held meanwhile shows then too)
          applyAnswer();
          const applyLater = applyBalanceLater(answer.balance);
          answeredBalance.current = () => void applyLater();
          // once the reels move: the page has its gesture now, so the audio context may start (making one
          // is a long task on a slow phone), and pushed balances show again; neither may stand between the
          // answer and the motion
          afterFirstFrames(() => {
            preloadSounds();
            balanceShows();
          });
          // whole, not on top of the 'opening' state: that transition may not have been rendered yet.
          // Where the reels run in a worker, at once: rendered with the stage's own update for the answer
          // (one render, one commit), mostly before the reels move rather than in slices while they do. On
          // the page's own thread, a transition, so its render yields to the reels' first frames
          const spinning = () =>
            setState({ ...IDLE, phase: 'spinning', mode: 'normal', count, results: answer.results });
          if (scenesRunInWorker()) spinning();
          else startTransition(spinning);
        } catch (error) {
          opening();
          // not paid: the balance known before the tap shows again (or what a push held meanwhile says)
          store.set(showPaymentAtom, null);
          balanceShows();
          fail(error);
          reset();
        }
      })();
    },
    [caseId, price, fail, reset, releaseDrops, releaseBalance, applyAnswer, store, reels, trackSeeds],
  );

  const quickOpen = useCallback(
    (count: number, after?: string) => {
      if (busy.current) return;
      const results: OpenResult[] = [];
      // one intent for the copies, one key each (the intent's key and the copy's number)
      const intent = `case:quick:${caseId}:${count}${after ? `:after:${after}` : ''}`;
      const request = runMoneyAction('case', intent, async (key) => {
        // one request per copy, each after the previous one answered (spec §7)
        for (let i = 0; i < count; i++) {
          const answer = await openCaseOnce(caseId, `${key}:${i}`);
          hold.current?.answered(answer.results.map((r) => r.openingId));
          results.push(...answer.results);
          keepUnseen('case', caseId, results);
          void applyBalance(answer.balance);
        }
      });
      if (!request) return;
      busy.current = true;
      hapticImpact('medium');
      preloadSounds(); // inside the tap, so the audio context may start
      setState({ ...IDLE, phase: 'opening', mode: 'quick', count });
      releaseDrops();
      hold.current = holdOwnDrops();
      void (async () => {
        try {
          await request;
        } catch (error) {
          fail(error);
        }
        if (results.length === 0) {
          reset();
          return;
        }
        // what was paid for before a failure is won all the same: show it
        setState((s) => ({ ...s, phase: 'finished', results }));
        win();
      })();
    },
    [caseId, fail, reset, releaseDrops, win],
  );

  const spinDone = useCallback(() => {
    if (spinEnded.current) return;
    spinEnded.current = true;
    applyAnswer();
    later(() => {
      setState((s) => (s.phase === 'spinning' ? { ...s, phase: 'finished' } : s));
      win();
    }, WIN_PAUSE_MS);
  }, [later, win, applyAnswer]);

  const keep = useCallback(() => {
    setState((s) => (s.phase === 'finished' ? { ...s, closing: true } : s));
    later(reset, KEEP_FADE_MS);
  }, [later, reset]);

  // the win screen is up (or the opening failed): the drops enter the player's feed now
  const phase = state.phase;
  useEffect(() => {
    if (phase === 'finished' || phase === 'idle') releaseDrops();
    if (phase === 'finished') markSeen('case', caseId);
  }, [phase, releaseDrops, caseId]);

  // back on the page after leaving (or reloading) mid-spin: what was won shows now, not never
  // (checked once the player is known, during render, so the win screen is the first thing shown)
  const playerId = useAtomValue(meAtom).data?.id;
  const [checkedFor, setCheckedFor] = useState<string | undefined>(undefined);
  if (playerId !== undefined && checkedFor !== playerId) {
    setCheckedFor(playerId);
    const unseen = state.phase === 'idle' ? readUnseen<OpenResult[]>(playerId, 'case', caseId) : null;
    if (unseen && unseen.length > 0) {
      setState({ ...IDLE, phase: 'finished', mode: 'quick', count: unseen.length, results: unseen });
    }
  }
  // a win screen shown that way holds the controls like one after a spin
  useEffect(() => {
    if (phase !== 'idle') busy.current = true;
  }, [phase]);

  // no swipe-to-minimize while the reels spin
  const spinning = state.phase === 'spinning';
  useEffect(() => (spinning ? lockVerticalSwipes() : undefined), [spinning]);

  return { state, reels, trackSeeds, open, quickOpen, spinDone, keep, again };
}
