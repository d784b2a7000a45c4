import {
  linearEasing,
  type CompositedDisc,
  type CompositedLayer,
  type CompositedStrip,
} from '../../../scenes/runtime';
import type { Compositor } from '../../../scenes/main-thread';

/**
 * The page's side of composited strips and discs, for the scene runtime on either path (called directly on
 * the main thread, through the worker's messages otherwise, see compositor-port.ts): a reel's cards become
 * a row of images under the scene's canvas, a wheel's face one image, moved (scrolled or turned) by a Web
 * Animation whose keyframes come from the scene's motion(). A transform animation runs on the compositor
 * thread, so no script, style or layout runs per frame while the reel or the wheel spins; the canvas above
 * keeps the marker or the pointer and takes the moving part back when the spin ends.
 */

/** Where each encoded card image is shown from, with a decoded copy kept so a play shows it at once. */
const images = new WeakMap<Blob, { url: string; image: HTMLImageElement; decoded: Promise<void> }>();

function imageOf(blob: Blob): { url: string; image: HTMLImageElement; decoded: Promise<void> } {
  let known = images.get(blob);
  if (!known) {
    const url = URL.createObjectURL(blob);
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
    const decoded = image.decode().catch(() => undefined); // a card that does not decode shows blank
    known = { url, image, decoded };
    images.set(blob, known);
  }
  return known;
}

/** Resolves once every image the layers show is decoded (or has failed to): they then show at once. */
export function layersDecoded(layers: readonly CompositedLayer[]): Promise<void> {
  const blobs = layers.flatMap((layer) =>
    'kind' in layer ? [layer.image, layer.landedImage ?? null] : layer.images,
  );
  const waits = new Set<Promise<void>>();
  for (const blob of blobs) if (blob) waits.add(imageOf(blob).decoded);
  return Promise.all(waits).then(() => undefined);
}

/** Lets an image go: no layer will show it again (its object URL is revoked). */
export function releaseImage(blob: Blob): void {
  const known = images.get(blob);
  if (!known) return;
  images.delete(blob);
  URL.revokeObjectURL(known.url);
}

/** How long after a play ends (or, for a disc that holds, stops) a staged disc's next turn is made ready again, ms. */
const READY_AGAIN_MS = 1000;

/** Cards drawn by one element of a strip. */
const CARDS_A_BOX = 6;

function px(value: number): string {
  return `${Math.round(value * 100) / 100}px`;
}

/** Whether the browser runs CSS linear() easings (piecewise-linear timing functions). */
const linearEasingSupported =
  typeof CSS !== 'undefined' &&
  typeof CSS.supports === 'function' &&
  CSS.supports('animation-timing-function', 'linear(0, 0.5 25%, 1)');

/** The page's time line now: the current frame's time (an animation started at it runs from this frame). */
function timelineNow(): number {
  const now = document.timeline.currentTime;
  return typeof now === 'number' ? now : performance.now();
}

/**
 * When a motion's animation starts, and how long it holds its first pose before it moves, ms. A motion the
 * page gets ahead of its start (a worker's play is offered OFFER_LEAD_MS before it moves) runs from now,
 * holding still until its first keyframe, rather than from that keyframe's time: an animation whose start
 * is still to come goes from waiting to running at that start, and the page's main thread runs a frame for
 * it then (style and a commit), right as the wheel or the reels begin to move. Run from now, that frame is
 * the one that shows it.
 */
function startOf(first: number): { start: number; hold: number } {
  const start = Math.min(first, timelineNow());
  const hold = first - start;
  return hold >= 1 ? { start, hold } : { start: first, hold: 0 };
}

/**
 * A two-pose motion's keyframes and timing: from `from` to `to` along `easing`, after holding `from` for
 * `hold` ms and before holding `to` for `tail` ms (the hold and the tail linear parts, the motion's easing
 * on the keyframe that starts it).
 */
function heldMotion(
  from: string,
  to: string,
  duration: number,
  hold: number,
  easing: string,
  tail = 0,
): { keyframes: Keyframe[]; timing: { duration: number; easing: string } } {
  if (hold <= 0 && tail <= 0)
    return { keyframes: [{ transform: from }, { transform: to }], timing: { duration, easing } };
  const total = hold + duration + tail;
  const keyframes: Keyframe[] = [{ transform: from, offset: 0 }];
  if (hold > 0) keyframes.push({ transform: from, offset: hold / total });
  keyframes.at(-1)!.easing = easing;
  keyframes.push({ transform: to, offset: (hold + duration) / total });
  if (tail > 0) keyframes.push({ transform: to, offset: 1 });
  return { keyframes, timing: { duration: total, easing: 'linear' } };
}

/**
 * How long a holding disc's turn (see CompositedDisc.holds) goes on after it stops, at its last pose, ms. An
 * animation the compositor runs that ends makes the page's main thread run frames (its finish, its fill's
 * style, a commit): at the stop, right as the player watches it, and again when its next turn is made
 * ready. Still running through the stop, the turn ends once, later, and is replaced there.
 */
const TAIL_MS = 1000;

/**
 * Runs a linear-keyframed motion (times on the page's time line, performance.now()) on an element's
 * transform. Where the browser has linear() easings, the same piecewise-linear curve is one easing of a
 * two-keyframe animation (the scene's own string when it has one made, see CompositedDisc.easing): one
 * string to parse instead of hundreds of keyframes to convert and parse (a reel's 300 keyframes cost ~25 ms
 * of a slow phone's main thread right as the spin starts); elsewhere the keyframes themselves. A motion
 * that starts later holds its first pose until then (see startOf).
 */
function animateAlong<K extends { t: number }>(
  element: HTMLElement,
  keyframes: readonly K[],
  valueOf: (keyframe: K) => number,
  transform: (value: number) => string,
  made?: string,
  tail = 0,
): Animation | null {
  const first = keyframes[0];
  const last = keyframes.at(-1);
  if (!first || !last) return null;
  const duration = Math.max(last.t - first.t, 1);
  const { start, hold } = startOf(first.t);
  const easing = linearEasingSupported ? (made ?? linearEasing(keyframes, valueOf)) : null;
  let animation: Animation;
  if (easing) {
    const motion = heldMotion(
      transform(valueOf(first)),
      transform(valueOf(last)),
      duration,
      hold,
      easing,
      tail,
    );
    animation = element.animate(motion.keyframes, { ...motion.timing, fill: 'both' });
  } else {
    const total = hold + duration + tail;
    const frames: Keyframe[] = keyframes.map((k) => ({
      transform: transform(valueOf(k)),
      offset: Math.min(Math.max((k.t - start) / total, 0), 1),
    }));
    if (hold > 0) frames.unshift({ transform: transform(valueOf(first)), offset: 0 });
    if (tail > 0) frames.push({ transform: transform(valueOf(last)), offset: 1 });
    animation = element.animate(frames, { duration: total, fill: 'both', easing: 'linear' });
  }
  // the document's time line counts from the page's time origin, as performance.now() does
  animation.startTime = start;
  return animation;
}

/** A strip's elements: the clipped band, the track that scrolls in it, and the track's boxes of cards. */
interface StripElements {
  band: HTMLDivElement;
  track: HTMLDivElement;
  /** Box k holds the strip's cards k × CARDS_A_BOX to (k + 1) × CARDS_A_BOX − 1. */
  boxes: HTMLDivElement[];
}

/**
 * Shows a run of the strip's cards on a box: each card a background layer of its image at its place, and
 * the images' indices (into the strip's images) in `data-images`, in the same order, to read what it shows.
 */
function fillBox(box: HTMLDivElement, strip: CompositedStrip, cards: CompositedStrip['cards']): void {
  box.style.cssText = boxStyle(strip, cards);
  box.dataset.images = cards.flatMap((card) => (strip.images[card.image] ? [card.image] : [])).join(',');
}

/**
 * A box's style: its cards (a run of the strip's) as background layers, each card's image at its place.
 * Object URLs (blob:origin/uuid) hold no quote or bracket: each goes in a url() as it is.
 */
function boxStyle(strip: CompositedStrip, cards: CompositedStrip['cards']): string {
  const left = cards[0]!.x;
  const boxHeight = px(strip.cardHeight);
  const shown = cards.flatMap((card) => {
    const blob = strip.images[card.image];
    return blob ? [{ url: imageOf(blob).url, x: card.x }] : [];
  });
  return (
    `position:absolute;left:${px(left)};top:0;width:${px(cards.at(-1)!.x + strip.cardWidth - left)};` +
    `height:${boxHeight};background-repeat:no-repeat;background-size:${px(strip.cardWidth)} ${boxHeight};` +
    (shown.length > 0
      ? `background-image:${shown.map((card) => `url("${card.url}")`).join(',')};` +
        `background-position:${shown.map((card) => `${px(card.x - left)} 0`).join(',')}`
      : 'background-image:none')
  );
}

/** Builds a strip's elements, its track at rest at scroll `restX`. */
function stripElements(strip: CompositedStrip, restX: number): StripElements {
  // every element's style is one declaration block, parsed once, not a setter call and a parse per property:
  // nine setters for each of a x3 reel's ~150 boxes were most of the page's script as the spin starts
  const band = document.createElement('div');
  band.className = 'scene-strip';
  band.style.cssText =
    `position:absolute;left:${px(strip.x)};top:${px(strip.y)};width:${px(strip.width)};` +
    `height:${px(strip.height)};overflow:hidden;contain:strict;pointer-events:none`;
  const track = document.createElement('div');
  const end = strip.cards.reduce((right, card) => Math.max(right, card.x + strip.cardWidth), 0);
  track.style.cssText =
    `position:absolute;left:0;top:${px(strip.cardY)};width:${px(end)};height:${px(strip.cardHeight)};` +
    `will-change:transform;transform:${scrollTo(restX)}`;
  // cards go in boxes of a few, each card a background layer of its box: few elements to style and lay
  // out as the spin starts, no load event a card (as an <img> would fire), and each box one display item
  // small enough that the compositor rasterizes only the cards near a tile
  const boxes: HTMLDivElement[] = [];
  for (let from = 0; from < strip.cards.length; from += CARDS_A_BOX) {
    const box = document.createElement('div');
    fillBox(box, strip, strip.cards.slice(from, from + CARDS_A_BOX));
    boxes.push(box);
  }
  track.append(...boxes);
  band.append(track);
  return { band, track, boxes };
}

/** A translate3d() transform for a strip's track at scroll x. */
const scrollTo = (x: number) => `translate3d(${px(-x)}, 0, 0)`;

/** A strip's scroll on its track. */
function scroll(track: HTMLElement, strip: CompositedStrip): Animation | null {
  return animateAlong(track, strip.keyframes, (k) => k.x, scrollTo, strip.easing);
}

/**
 * Whether a play's strip can take a staged one: the same band, card size and images, and cards at the same
 * places (what each card shows may differ: those boxes are restyled, see restage()).
 */
function sameBand(a: CompositedStrip, b: CompositedStrip): boolean {
  return (
    a.x === b.x &&
    a.y === b.y &&
    a.width === b.width &&
    a.height === b.height &&
    a.cardWidth === b.cardWidth &&
    a.cardHeight === b.cardHeight &&
    a.cardY === b.cardY &&
    a.images.length === b.images.length &&
    a.images.every((image, i) => image === b.images[i]) &&
    a.cards.length === b.cards.length &&
    a.cards.every((card, i) => card.x === b.cards[i]!.x)
  );
}

/** Shows a play's cards on a staged strip of the same band: only the boxes whose cards differ are restyled. */
function restage(staged: CompositedStrip, boxes: readonly HTMLDivElement[], play: CompositedStrip): void {
  boxes.forEach((box, k) => {
    const from = k * CARDS_A_BOX;
    const cards = play.cards.slice(from, from + CARDS_A_BOX);
    if (cards.some((card, i) => card.image !== staged.cards[from + i]!.image)) fillBox(box, play, cards);
  });
}

/** One disc: the face image filling its box, turned about the box's centre (by a play's animation). */
function discElement(disc: CompositedDisc): HTMLDivElement {
  const face = document.createElement('div');
  face.className = 'scene-disc';
  Object.assign(face.style, {
    position: 'absolute',
    left: px(disc.x),
    top: px(disc.y),
    width: px(disc.width),
    height: px(disc.height),
    backgroundImage: faceImage(disc.image),
    backgroundSize: '100% 100%',
    backgroundRepeat: 'no-repeat',
    transformOrigin: '50% 50%',
    willChange: 'transform',
    contain: 'strict',
    pointerEvents: 'none',
  });
  return face;
}

/** A face's image as a background-image value. */
function faceImage(image: Blob | null): string {
  return image ? `url("${imageOf(image).url}")` : 'none';
}

/** A rotate() transform; the angles are cumulative, and rotate() between two keyframes interpolates the number. */
const rotate = (angle: number) => `rotate(${Math.round(angle * 1e4) / 1e4}deg)`;

/** A disc's turn. */
function turn(face: HTMLElement, disc: CompositedDisc): Animation | null {
  return animateAlong(face, disc.keyframes, (k) => k.angle, rotate, disc.easing, disc.holds ? TAIL_MS : 0);
}

/**
 * A holding disc's landed image (see CompositedDisc.landedImage) shown from the frame it stops: a layer above
 * the face, turned with it, whose opacity steps from 0 to 1 at the stop. The compositor runs the step with
 * the turn, so the landing takes no main-thread frame of its own (a swap of the face's image there was a
 * style change, a paint and a commit in the frame the wheel stops). Null without a landed image.
 */
function landAt(face: HTMLElement, disc: CompositedDisc, turned: Animation): Animation | null {
  if (disc.landedImage === undefined) return null;
  let landed = face.querySelector<HTMLDivElement>(':scope > .scene-disc__landed');
  if (!landed) {
    landed = document.createElement('div');
    landed.className = 'scene-disc__landed';
    Object.assign(landed.style, {
      position: 'absolute',
      inset: '0',
      backgroundSize: '100% 100%',
      backgroundRepeat: 'no-repeat',
      opacity: '0',
      willChange: 'opacity',
      pointerEvents: 'none',
    });
    face.append(landed);
  }
  const image = faceImage(disc.landedImage);
  if (landed.dataset.image !== image) {
    landed.style.backgroundImage = image;
    landed.dataset.image = image;
  }
  // the turn's time line: it starts at `start`, stops at its last keyframe and ends TAIL_MS later
  const start = Number(turned.startTime);
  const end = Math.max(Number(turned.effect?.getComputedTiming().endTime ?? 0), 1);
  const stop = Math.min(Math.max(((disc.keyframes.at(-1)?.t ?? start + end) - start) / end, 0), 1);
  const step = landed.animate(
    [
      { opacity: 0, offset: 0, easing: 'steps(1, end)' },
      { opacity: 1, offset: stop },
      { opacity: 1, offset: 1 },
    ],
    { duration: end, fill: 'forwards' },
  );
  step.startTime = start;
  return step;
}

/**
 * A staged disc's next turn made ready before it is asked for: an animation with the easing the scene says
 * that turn will have (parsed now, while the wheel is at rest), paused, that a play's hand-off only gives
 * its two angles, length and start. Null where the browser has no linear() easings or there is no easing.
 */
function readyTurn(element: HTMLElement, layer: CompositedLayer, angle = 0): Ready | null {
  const { easing } = layer;
  if (!linearEasingSupported || !easing) return null;
  const rest = 'kind' in layer ? rotate(angle) : scrollTo(layer.keyframes[0]?.x ?? 0);
  const animation = element.animate([{ transform: rest }, { transform: rest }], {
    duration: 1,
    fill: 'both',
    easing,
  });
  animation.pause();
  return { animation, easing };
}

/** Starts a ready motion on a play's disc or strip (whose easing is the one it was made with). */
function startReady(ready: Ready, layer: CompositedLayer): Animation | null {
  const first = layer.keyframes[0];
  const last = layer.keyframes.at(-1);
  const effect = ready.animation.effect;
  if (!first || !last || !(effect instanceof KeyframeEffect)) {
    ready.animation.cancel();
    return null;
  }
  const at = (k: (typeof layer.keyframes)[number]) => ('angle' in k ? rotate(k.angle) : scrollTo(k.x));
  const { start, hold } = startOf(first.t);
  const tail = 'kind' in layer && layer.holds ? TAIL_MS : 0;
  const motion = heldMotion(at(first), at(last), Math.max(last.t - first.t, 1), hold, ready.easing, tail);
  effect.setKeyframes(motion.keyframes);
  // without a hold or a tail, the easing it was made with stays (parsed while the wheel rested); else it
  // moves onto the keyframe that starts the motion
  effect.updateTiming(hold > 0 || tail > 0 ? motion.timing : { duration: motion.timing.duration });
  // a paused animation given a start time runs from it
  ready.animation.startTime = start;
  return ready.animation;
}

/** Whether a staged disc shows what a play's disc shows: the same image in the same box. */
function sameFace(a: CompositedDisc, b: CompositedDisc): boolean {
  return a.image === b.image && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Whether a play's layer can take a staged one (see sameFace and sameBand). */
function takes(staged: CompositedLayer, play: CompositedLayer): boolean {
  if ('kind' in staged) return 'kind' in play && sameFace(staged, play);
  return !('kind' in play) && sameBand(staged, play);
}

/**
 * A staged disc or strip: on the page under the canvas, painted on its own layer, unseen (opacity 0, which
 * the compositor changes without a repaint) until a play moves it. `data-staged` says which: `idle` or
 * `shown`.
 */
interface Staged {
  /** What it shows (a strip: the cards of the last play that took it, or those it was staged with). */
  layer: CompositedLayer;
  /** The disc's face, or the strip's band. */
  element: HTMLDivElement;
  /** What a play moves: the face, or the strip's track. */
  moving: HTMLElement;
  /** A strip's boxes of cards. */
  boxes: HTMLDivElement[];
  /** Its next motion, made ready (see readyTurn); a play takes it. */
  ready: Ready | null;
  /** A later stage replaced it while a play turned it: it goes when that play's layers do. */
  dropped: boolean;
}

/** A paused animation with a turn's easing parsed, and that easing. */
interface Ready {
  animation: Animation;
  easing: string;
}

function setStagedShown(staged: Staged, shown: boolean): void {
  staged.element.style.opacity = shown ? '1' : '0';
  staged.element.dataset.staged = shown ? 'shown' : 'idle';
}

/** What the page holds for one surface under its canvas: a play's layers, and the discs staged for the next. */
interface SurfaceLayers {
  /** The box under the canvas that holds them all. */
  root: HTMLDivElement;
  staged: Staged[];
  /** The current play's elements built for it (removed when it ends), staged ones it turns, its animations. */
  built: HTMLElement[];
  turning: Staged[];
  animations: Animation[];
}

/**
 * A compositor for the scene canvases `canvasOf` finds: layers are shown right under the surface's canvas.
 * A play's disc that a staged one already shows (the same image and box) turns that element; other layers
 * are built as the play starts and removed as it ends.
 */
export function createCompositor(canvasOf: (surface: number) => HTMLCanvasElement | undefined): Compositor & {
  close(surface: number): void;
  showsStaged(surface: number, layers: readonly CompositedLayer[]): boolean;
} {
  const surfaces = new Map<number, SurfaceLayers>();

  /** The surface's box under its canvas (made on first use), or null once the canvas is gone. */
  function layersOf(surface: number): SurfaceLayers | null {
    const canvas = canvasOf(surface);
    const known = surfaces.get(surface);
    if (known && canvas && known.root.nextSibling === canvas) {
      // the box clips what it holds (a turning disc's corners), so it follows the canvas's size
      const { style } = known.root;
      if (style.width !== canvas.style.width) style.width = canvas.style.width;
      if (style.height !== canvas.style.height) style.height = canvas.style.height;
      return known;
    }
    if (known) close(surface); // its canvas went (or moved): start over
    if (!canvas?.parentElement) return null;
    const root = document.createElement('div');
    root.className = 'scene-strips';
    // SceneView's box holds only the canvas, at its top left: no layout read as the spin starts. It clips
    // what it holds: a square disc turned 45° reaches 41% past its box, which would change the page's
    // scrollable overflow as it turns and repaint the whole document (a wide wheel on a narrow phone)
    Object.assign(root.style, {
      position: 'absolute',
      left: '0',
      top: '0',
      width: canvas.style.width,
      height: canvas.style.height,
      overflow: 'hidden',
      contain: 'strict',
      pointerEvents: 'none',
    });
    canvas.before(root);
    const created: SurfaceLayers = { root, staged: [], built: [], turning: [], animations: [] };
    surfaces.set(surface, created);
    return created;
  }

  /** A staged disc's turn made ready again for the next play, a moment after its play ended (not in its landing). */
  function readyAgainSoon(entry: SurfaceLayers, staged: Staged): void {
    setTimeout(() => {
      const gone = !entry.root.isConnected || !entry.staged.includes(staged);
      if (gone || staged.ready || entry.turning.includes(staged)) return;
      staged.ready = readyTurn(staged.moving, staged.layer);
    }, READY_AGAIN_MS);
  }

  /**
   * A staged disc's holding turn (see CompositedDisc.holds): once it ends, TAIL_MS after it stopped, its
   * next turn is made ready, holding the same angle, in place of the finished one (its landed image, see
   * landAt, stays). Nothing happens once the play's layers went (hide).
   */
  function holdLanding(
    entry: SurfaceLayers,
    animation: Animation,
    layer: CompositedDisc,
    staged: Staged,
  ): void {
    const current = () => entry.animations.includes(animation) && entry.root.isConnected;
    animation.finished
      .then(() => {
        if (!current() || staged.ready) return;
        const ready = readyTurn(staged.moving, staged.layer, layer.keyframes.at(-1)?.angle ?? 0);
        if (!ready) return;
        // it shows the same pose: the finished turn can go
        staged.ready = ready;
        entry.animations.splice(entry.animations.indexOf(animation), 1);
        animation.cancel();
      })
      .catch(() => undefined); // cancelled: the play's layers went
  }

  function hide(surface: number): void {
    const entry = surfaces.get(surface);
    if (!entry) return;
    for (const animation of entry.animations.splice(0)) animation.cancel();
    for (const element of entry.built.splice(0)) element.remove();
    for (const staged of entry.turning.splice(0)) {
      if (staged.dropped) staged.element.remove();
      else {
        setStagedShown(staged, false);
        readyAgainSoon(entry, staged);
      }
    }
    if (entry.staged.length === 0) close(surface);
  }

  function close(surface: number): void {
    const entry = surfaces.get(surface);
    if (!entry) return;
    surfaces.delete(surface);
    for (const animation of entry.animations) animation.cancel();
    entry.root.remove();
  }

  return {
    preload(blob) {
      imageOf(blob);
    },
    showsStaged(surface, layers) {
      const entry = surfaces.get(surface);
      if (!entry || layers.length === 0 || entry.root.nextSibling !== canvasOf(surface)) return false;
      // a play's own discs are freed by its show (hide first), so every staged disc may be matched again
      const free = [...entry.staged];
      return layers.every((layer) => {
        const at = free.findIndex((s) => takes(s.layer, layer));
        if (at < 0) return false;
        free.splice(at, 1);
        return true;
      });
    },
    show(surface, layers) {
      hide(surface);
      const entry = layersOf(surface);
      if (!entry) return;
      for (const layer of layers) {
        const staged = entry.staged.find((s) => !entry.turning.includes(s) && takes(s.layer, layer));
        let animation: Animation | null;
        if (staged) {
          const ready = staged.ready;
          staged.ready = null;
          if (!('kind' in layer) && !('kind' in staged.layer)) {
            restage(staged.layer, staged.boxes, layer);
            staged.layer = { ...staged.layer, cards: layer.cards };
          }
          setStagedShown(staged, true);
          entry.turning.push(staged);
          if (ready && ready.easing !== layer.easing) ready.animation.cancel();
          animation =
            ready && ready.easing === layer.easing
              ? startReady(ready, layer)
              : 'kind' in layer
                ? turn(staged.moving, layer)
                : scroll(staged.moving, layer);
          if (animation && 'kind' in layer && layer.holds) {
            holdLanding(entry, animation, layer, staged);
            const landing = landAt(staged.element, layer, animation);
            if (landing) entry.animations.push(landing);
          }
        } else if ('kind' in layer) {
          const element = discElement(layer);
          entry.root.append(element);
          entry.built.push(element);
          animation = turn(element, layer);
          if (animation && layer.holds) {
            const landing = landAt(element, layer, animation);
            if (landing) entry.animations.push(landing);
          }
        } else {
          const { band, track } = stripElements(layer, layer.keyframes[0]?.x ?? 0);
          entry.root.append(band);
          entry.built.push(band);
          animation = scroll(track, layer);
        }
        if (animation) entry.animations.push(animation);
      }
    },
    standBy(surface, layers) {
      const entry = layers.length > 0 ? layersOf(surface) : (surfaces.get(surface) ?? null);
      if (!entry) return;
      const kept: Staged[] = [];
      for (const old of entry.staged) {
        // one a play turns stays until that play's layers go
        if (entry.turning.includes(old)) old.dropped = true;
        else {
          old.ready?.animation.cancel();
          old.element.remove();
        }
      }
      for (const layer of layers) {
        let staged: Staged;
        if ('kind' in layer) {
          const element = discElement(layer);
          // its own layer, painted while unseen, so showing it is an opacity change for the compositor
          element.style.willChange = 'transform, opacity';
          staged = { layer, element, moving: element, boxes: [], ready: null, dropped: false };
        } else {
          const { band, track, boxes } = stripElements(layer, layer.keyframes[0]?.x ?? 0);
          // the band on a layer of its own, so showing it is an opacity change (its track has one already)
          band.style.willChange = 'opacity';
          staged = { layer, element: band, moving: track, boxes, ready: null, dropped: false };
        }
        setStagedShown(staged, false);
        entry.root.append(staged.element);
        staged.ready = readyTurn(staged.moving, layer);
        kept.push(staged);
      }
      entry.staged = kept;
      if (kept.length === 0 && entry.built.length === 0 && entry.turning.length === 0) close(surface);
    },
    hide,
    close,
  };
}
