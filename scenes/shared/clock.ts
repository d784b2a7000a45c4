/**
 * A scene's time source. Scenes read the time only through a clock: by default performance.now(), so the
 * app's screens behave exactly as without one. The debug scene switcher passes its own clock to play a
 * scene in slow motion, pause it and scrub it, without the scene knowing anything about the switcher.
 *
 * A clock is plain callbacks (no DOM, no window), so a scene keeps running unchanged in a worker.
 */
export interface SceneClock {
  /** The current time, ms. Scenes only subtract two readings, so any origin works. */
  now(): number;
  /** While this returns true, a scene draws its current pose once and then holds no frames. */
  isPaused?(): boolean;
  /**
   * Calls `listener` whenever the time jumps or starts flowing again (seek, resume, speed change), so a
   * scene that stopped drawing (paused, or done) draws the pose of the new time. Returns the unsubscribe.
   */
  subscribe?(listener: () => void): () => void;
  /** A scene tells the clock when its spin starts (clock time), e.g. so a scrubber can seek relative to it. */
  spinStarted?(startAt: number): void;
}

/** The real time: performance.now(), never paused. */
export const systemClock: SceneClock = {
  now: () => performance.now(),
};
