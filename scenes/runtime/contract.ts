import type { Container, Renderer, Texture } from 'pixi.js';
import type { RuntimeClock } from './clock.ts';

/** The scenes the runtime hosts. */
export type SceneId = 'roulette' | 'chance-wheel' | 'bonus-wheel' | 'battle-reel' | 'win-reveal';

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
  /**
   * Card textures as encoded images for composited strips (a scene that implements composite() asks while
   * it prepares), one per texture (null where one cannot be read), made once per texture and handed to the
   * page ahead of any play (from a worker, posted to it). Empty where the runtime has no compositor.
   */
  stripImages(textures: readonly Texture[]): Promise<(Blob | null)[]>;
  /**
   * The runtime hands plays to the page's compositor (directly on the main-thread path, through messages
   * from the worker): a scene bakes images for composite() only then (stripImages answers [] elsewhere).
   */
  readonly composites: boolean;
  /**
   * The discs or strips a next play would hand over, as they are at rest (their keyframes are not used; a
   * strip rests at its first): the page's compositor gets each ready under the canvas, unseen and painted,
   * so a play's hand-off only starts its motion (no element to build, style, lay out and paint as the spin
   * starts). A play's strip takes a staged strip of the same band, images and card places, whose cards it
   * changes where the two differ (a reel's stop). Replaces what the surface had staged; [] lets it go. Does
   * nothing where the runtime has no compositor.
   */
  standBy(layers: readonly CompositedLayer[]): void;
}

/**
 * A band of the surface that only scrolls during a play (a reel): where the main thread draws the scenes,
 * the page's compositor moves it from keyframes, so no script runs per frame while it spins. Coordinates
 * are the surface's CSS px; track x is the scroll: track point x sits at the band's left edge.
 */
export interface CompositedStrip {
  /** The band on the surface. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The cards' images (see stripImages) and their size and top inside the band. */
  images: readonly (Blob | null)[];
  cardWidth: number;
  cardHeight: number;
  cardY: number;
  /** The cards the play shows: an image index and the card's left edge in track coordinates. */
  cards: readonly { image: number; x: number }[];
  /** The scroll over time: clock times ascending, linear in between, held before the first and after the last. */
  keyframes: readonly { t: number; x: number }[];
  /** The keyframes' curve as a CSS linear() easing, when the scene has it made already (see CompositedDisc.easing). */
  easing?: string;
}

/**
 * A round face that only turns during a play (a wheel): where the main thread draws the scenes, the page's
 * compositor shows its baked image under the canvas and rotates it about its centre from keyframes, so no
 * script runs per frame while it spins. Coordinates are the surface's CSS px.
 */
export interface CompositedDisc {
  kind: 'disc';
  /** The face's box on the surface; it turns about the box's centre. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The baked face (see stripImages), drawn to fill the box at angle 0; null shows nothing. */
  image: Blob | null;
  /**
   * The turn over time: clock times ascending, linear in between, held before the first and after the
   * last. Angle in degrees, clockwise positive (as CSS and Pixi rotate), cumulative (not wrapped).
   */
  keyframes: readonly { t: number; angle: number }[];
  /**
   * The keyframes' curve as a CSS linear() easing (the angle normalized from the first keyframe's to the
   * last's, over their span), when the scene has it made already: the same for every play of a wheel's
   * settings. On a staged disc (see SceneContext.standBy) it is the next play's, so the page can get that
   * play's animation ready before it starts.
   */
  easing?: string;
  /**
   * The play's last pose is the scene's rest pose, and the disc keeps showing it once the last keyframe has
   * passed: it stays on the page at its last angle (showing `landedImage` from then on, where given: the
   * face as it looks stopped, e.g. the chance wheel's arc in the verdict's colour), the canvas does not draw
   * the face again, and the runtime draws no frame for the landing (it steps the scene, whose frame() there
   * must change nothing else the canvas shows). The runtime takes it back (composite(false), the canvas
   * draws the face again) only when something changes the rest pose: a new plan, the next play, a resize, a
   * config edit, the clock. A staged disc's `holds` and `landedImage` are not used.
   */
  holds?: boolean;
  /** The image a holding disc shows once the last keyframe has passed (see holds); absent: `image`. */
  landedImage?: Blob | null;
}

/** What a play hands to the page's compositor: scrolled strips or turned discs. */
export type CompositedLayer = CompositedStrip | CompositedDisc;

/** Where a spin landed, as the scene reports it. */
export type SettledResult =
  | { scene: 'roulette'; reels: { index: number; itemId: string }[] }
  | { scene: 'chance-wheel'; success: boolean; fraction: number }
  | { scene: 'bonus-wheel'; segment: number }
  | { scene: 'battle-reel'; caseIndex: number }
  | { scene: 'win-reveal'; tier: number };

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
  /**
   * Optional, for scenes whose play is only a scroll of baked cards or the turn of a baked face: `true`
   * hands the current play's strips or discs to the page's compositor (the scene stops drawing them; the
   * runtime draws no frame until the play's last keyframe) and returns them, or returns none to keep
   * drawing; `false` takes them back. Discs that hold (see CompositedDisc.holds) stay with the page after
   * the last keyframe, until `false` takes them back.
   */
  composite?(on: boolean): CompositedLayer[];
  destroy(): void;
}

export type SceneFactory = (context: SceneContext) => Scene;
