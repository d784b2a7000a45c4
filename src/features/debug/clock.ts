import type { SceneClock } from '../../../scenes/debug';

/**
 * The switcher's scene clock: real time, scaled by a rate (slow motion), that can be paused and set to any
 * time (scrub). Scenes read it through their `clock` prop; they never see the switcher. It remembers when
 * the last spin started, so the scrubber can show and set the time since.
 */
export class DebugClock implements SceneClock {
  private anchorReal: number;
  private anchorTime: number;
  private speed = 1;
  private paused = false;
  private readonly sceneListeners = new Set<() => void>();
  private readonly stateListeners = new Set<() => void>();
  /** Clock time when the last spin started, or null before the first. */
  lastStart: number | null = null;

  constructor(private readonly real: () => number = () => performance.now()) {
    this.anchorReal = real();
    this.anchorTime = this.anchorReal;
  }

  now(): number {
    return this.paused ? this.anchorTime : this.anchorTime + (this.real() - this.anchorReal) * this.speed;
  }

  isPaused(): boolean {
    return this.paused;
  }

  get rate(): number {
    return this.speed;
  }

  subscribe(listener: () => void): () => void {
    this.sceneListeners.add(listener);
    return () => this.sceneListeners.delete(listener);
  }

  spinStarted(startAt: number): void {
    this.lastStart = startAt;
    this.emitState();
  }

  /** Listens to the clock's own state (paused, rate, a new spin) for the switcher's controls. */
  watch(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Time since the last spin started, ms (0 before the first). */
  elapsed(): number {
    return this.lastStart === null ? 0 : this.now() - this.lastStart;
  }

  setRate(rate: number): void {
    if (!(rate > 0) || rate === this.speed) return;
    this.reanchor();
    this.speed = rate;
    this.emit();
  }

  pause(): void {
    if (this.paused) return;
    this.reanchor();
    this.paused = true;
    this.emitState();
  }

  resume(): void {
    if (!this.paused) return;
    this.anchorReal = this.real();
    this.paused = false;
    this.emit();
  }

  /** Sets the time to `ms` after the last spin started (nothing before the first spin). */
  seekInSpin(ms: number): void {
    if (this.lastStart === null) return;
    this.anchorTime = this.lastStart + ms;
    this.anchorReal = this.real();
    this.emit();
  }

  private reanchor(): void {
    this.anchorTime = this.now();
    this.anchorReal = this.real();
  }

  private emit(): void {
    for (const listener of [...this.sceneListeners]) listener();
    this.emitState();
  }

  private emitState(): void {
    for (const listener of [...this.stateListeners]) listener();
  }
}
