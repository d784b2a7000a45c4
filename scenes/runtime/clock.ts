/**
 * A surface's time: performance.now() scaled by a rate (slow motion), which can be paused and set to a time
 * relative to the last spin's start (scrubbing). The app's screens never touch it (rate 1, never paused);
 * the debug switcher drives it through runtime messages.
 */
export class RuntimeClock {
  private anchorReal: number;
  private anchorTime: number;
  private speed = 1;
  private paused = false;
  /** Clock time at which the last spin started, or null before the first. */
  spinStart: number | null = null;

  constructor(private readonly real: () => number = () => performance.now()) {
    this.anchorReal = real();
    this.anchorTime = this.anchorReal;
  }

  now(): number {
    return this.paused ? this.anchorTime : this.anchorTime + (this.real() - this.anchorReal) * this.speed;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get rate(): number {
    return this.speed;
  }

  /** Time since the last spin started, ms (0 before the first). */
  elapsed(): number {
    return this.spinStart === null ? 0 : this.now() - this.spinStart;
  }

  setRate(rate: number): void {
    if (!(rate > 0) || rate === this.speed) return;
    this.reanchor();
    this.speed = rate;
  }

  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    if (paused) this.reanchor();
    else this.anchorReal = this.real();
    this.paused = paused;
  }

  /** Sets the time to `ms` after the last spin started (nothing before the first spin). */
  seekInSpin(ms: number): void {
    if (this.spinStart === null) return;
    this.anchorTime = this.spinStart + ms;
    this.anchorReal = this.real();
  }

  private reanchor(): void {
    this.anchorTime = this.now();
    this.anchorReal = this.real();
  }
}
