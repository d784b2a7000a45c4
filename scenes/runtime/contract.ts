import type { Container, Renderer, Texture } from 'pixi.js';
import type { RuntimeClock } from './clock.ts';

/** The scenes the runtime hosts. */
export type SceneId = 'roulette' | 'chance-wheel' | 'bonus-wheel' | 'battle-reel';

/** A surface's size: CSS px and the device pixel ratio it renders at. */
export interface SceneSize {
  width: number;
  height: number;
  dpr: number;
}

/** Loads an image once (decoded off the main thread where it can be) as a texture, or null when it fails. */
export type ArtLoader = (url: string | undefined) => Promise<Texture | null>;

/** What a scene may use: everything else (size, time, art, events) reaches it through here. */
export interface SceneContext {
  readonly renderer: Renderer;
  /** The scene's own container; the runtime renders it onto the scene's canvas. */
  readonly stage: Container;
  readonly clock: RuntimeClock;
  readonly art: ArtLoader;
  /** Current size of the surface. */
  readonly size: SceneSize;
  /** Draw one more frame (after a change while nothing moves). */
  invalidate(): void;
  /** Start frames: frame() is called on every frame until it returns false. */
  animate(): void;
  /** A crossing (a card, a notch, a segment border) passed the marker: batched into one `tick` event. */
  tick(index: number): void;
  /** The spin started at this clock time (the debug switcher's scrubber seeks relative to it). */
  started(startAt: number): void;
  /** The spin is over; `result` says where it landed. Flushes pending ticks first. */
  settled(result: SettledResult): void;
}

/** Where a spin landed, as the scene reports it. */
export type SettledResult =
  | { scene: 'roulette'; reels: { index: number; itemId: string }[] }
  | { scene: 'chance-wheel'; success: boolean; fraction: number }
  | { scene: 'bonus-wheel'; segment: number }
  | { scene: 'battle-reel'; caseIndex: number };

/**
 * The one contract every scene implements (DESIGN rule 5). The runtime calls these in order: prepare()
 * (bake textures, lay the plan out, show its rest pose), play() (start the motion at a clock time), frame()
 * on each animation frame while it asks for frames, resize() and configure() at any time, destroy() once.
 * Motion is a pure function of the plan and the time; frame() only copies poses onto display objects.
 */
export interface Scene<Plan = unknown, Config = unknown> {
  prepare(plan: Plan): Promise<void>;
  /** Starts the prepared plan's motion at clock time startAt (a scene may add its own lead). */
  play(startAt: number): void;
  /** Draws the pose at clock time `now`; returns true while it needs more frames. */
  frame(now: number): boolean;
  resize(size: SceneSize): void;
  /** Live tuning (the debug switcher): overrides of the scene's config, applied without a restart. */
  configure(config: Partial<Config>): void;
  /**
   * The current play's crossings as clock times, ascending, read from its pure motion (one per tick the
   * play would report): the runtime sends them once when the play starts, so the app schedules every tick
   * sound and haptic ahead instead of being told of each crossing. Empty when nothing plays.
   */
  ticks(): number[];
  destroy(): void;
}

export type SceneFactory = (context: SceneContext) => Scene;
