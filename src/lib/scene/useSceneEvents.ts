import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { SceneEvent, SettledResult } from '../../../scenes/runtime';
import { hapticSelection, scheduleSelections } from '../haptics';
import { playTick, scheduleTicks } from '../sound';

interface SceneEventHandlers {
  /** Names the scene in the console when it fails. */
  label: string;
  /** Crossings play the tick sound and a selection haptic (a spin's schedule ahead, or live). */
  ticks?: boolean;
  /** The play's motion started (the spin watchdog counts from here). */
  started?: () => void;
  /** The play is over. */
  settled?: (result: SettledResult) => void;
  /** The scene failed (after it is logged). */
  failed?: (message: string) => void;
}

/**
 * The one handler of a scene's batched events for the screens that show one: ticks become sound and
 * haptics on this thread (a play's schedule is planned ahead at once, so nothing here runs per crossing),
 * and started, settled and error reach the screen. Handlers may change between renders.
 */
export function useSceneEvents(handlers: SceneEventHandlers): (events: SceneEvent[]) => void {
  const current = useRef(handlers);
  useLayoutEffect(() => {
    current.current = handlers;
  });
  const cancelSchedule = useRef<() => void>(() => undefined);
  useEffect(() => () => cancelSchedule.current(), []);

  return useCallback((events: SceneEvent[]) => {
    const on = current.current;
    for (const event of events) {
      if (event.type === 'tick') {
        if (!on.ticks) continue;
        playTick();
        hapticSelection();
      } else if (event.type === 'ticks') {
        cancelSchedule.current();
        if (!on.ticks || event.times.length === 0) {
          cancelSchedule.current = () => undefined;
          continue;
        }
        // the shared time line → this page's performance.now()
        const times = event.times.map((t) => t - performance.timeOrigin);
        const sounds = scheduleTicks(times);
        const haptics = scheduleSelections(times);
        cancelSchedule.current = () => {
          sounds();
          haptics();
        };
      } else if (event.type === 'started') {
        on.started?.();
      } else if (event.type === 'settled') {
        // every crossing has sounded: the schedule lets go of the audio context now
        cancelSchedule.current();
        cancelSchedule.current = () => undefined;
        on.settled?.(event.result);
      } else if (event.type === 'error') {
        console.error(`${on.label} failed`, event.message);
        on.failed?.(event.message);
      }
    }
  }, []);
}
