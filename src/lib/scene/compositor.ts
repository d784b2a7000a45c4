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
  const blobs = layers.flatMap((layer) => ('kind' in layer ? [layer.image] : layer.images));
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

/** How long after a play ends a staged disc's next turn is made ready again, ms. */
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

/**
 * Runs a linear-keyframed motion (times on the page's time line, performance.now()) on an element's
 * transform. Where the browser has linear() easings, the same piecewise-linear curve is one easing of a
 * two-keyframe animation (the scene's own string when it has one made, see CompositedDisc.easing): one
 * string to parse instead of hundreds of keyframes to convert and parse (a reel's 300 keyframes cost ~25 ms
 * of a slow phone's main thread right as the spin starts); elsewhere the keyframes themselves.
 */
function animateAlong<K extends { t: number }>(
  element: HTMLElement,
  keyframes: readonly K[],
  valueOf: (keyframe: K) => number,
  transform: (value: number) => string,
  made?: string,
): Animation | null {
  const first = keyframes[0];
  const last = keyframes.at(-1);
  if (!first || !last) return null;
  const duration = Math.max(last.t - first.t, 1);
  const easing = linearEasingSupported ? (made ?? linearEasing(keyframes, valueOf)) : null;
  let animation: Animation;
  if (easing) {
    animation = element.animate(
      [{ transform: transform(valueOf(first)) }, { transform: transform(valueOf(last)) }],
      { duration, fill: 'both', easing },
    );
  } else {
    animation = element.animate(
      keyframes.map((k) => ({
        transform: transform(valueOf(k)),
        offset: Math.min(Math.max((k.t - first.t) / duration, 0), 1),
      })),
      { duration, fill: 'both', easing: 'linear' },
    );
  }
  // the document's time line counts from the page's time origin, as performance.now() does
  animation.startTime = first.t;
  return animation;
}

/** One strip: a clipped band, a track of images positioned once, and the animation that scrolls it. */
function stripElement(strip: CompositedStrip): { band: HTMLDivElement; animation: Animation | null } {
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
    'will-change:transform';
  // cards go in boxes of a few, each card a background layer of its box: few elements to style and lay
  // out as the spin starts, no load event a card (as an <img> would fire), and each box one display item
  // small enough that the compositor rasterizes only the cards near a tile
  const shown = strip.cards.flatMap((card) => {
    const blob = strip.images[card.image];
    return blob ? [{ url: imageOf(blob).url, x: card.x }] : [];
  });
  const boxHeight = px(strip.cardHeight);
  const cardSize = `${px(strip.cardWidth)} ${boxHeight}`;
  for (let from = 0; from < shown.length; from += CARDS_A_BOX) {
    const cards = shown.slice(from, from + CARDS_A_BOX);
    const left = cards[0]!.x;
    const box = document.createElement('div');
    // object URLs (blob:origin/uuid) hold no quote or bracket: each goes in a url() as it is
    box.style.cssText =
      `position:absolute;left:${px(left)};top:0;width:${px(cards.at(-1)!.x + strip.cardWidth - left)};` +
      `height:${boxHeight};background-repeat:no-repeat;background-size:${cardSize};` +
      `background-image:${cards.map((card) => `url("${card.url}")`).join(',')};` +
      `background-position:${cards.map((card) => `${px(card.x - left)} 0`).join(',')}`;
    track.append(box);
  }
  band.append(track);

  const animation = animateAlong(
    track,
    strip.keyframes,
    (k) => k.x,
    (x) => `translate3d(${px(-x)}, 0, 0)`,
    strip.easing,
  );
  return { band, animation };
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
    backgroundImage: disc.image ? `url("${imageOf(disc.image).url}")` : 'none',
    backgroundSize: '100% 100%',
    backgroundRepeat: 'no-repeat',
    transformOrigin: '50% 50%',
    willChange: 'transform',
    contain: 'strict',
    pointerEvents: 'none',
  });
  return face;
}

/** A rotate() transform; the angles are cumulative, and rotate() between two keyframes interpolates the number. */
const rotate = (angle: number) => `rotate(${Math.round(angle * 1e4) / 1e4}deg)`;

/** A disc's turn. */
function turn(face: HTMLElement, disc: CompositedDisc): Animation | null {
  return animateAlong(face, disc.keyframes, (k) => k.angle, rotate, disc.easing);
}

/**
 * A staged disc's next turn made ready before it is asked for: an animation with the easing the scene says
 * that turn will have (parsed now, while the wheel is at rest), paused, that a play's hand-off only gives
 * its two angles, length and start. Null where the browser has no linear() easings or there is no easing.
 */
function readyTurn(face: HTMLElement, easing: string | undefined): Ready | null {
  if (!linearEasingSupported || !easing) return null;
  const animation = face.animate([{ transform: rotate(0) }, { transform: rotate(0) }], {
    duration: 1,
    fill: 'both',
    easing,
  });
  animation.pause();
  return { animation, easing };
}

/** Starts a ready turn on a play's disc (whose easing is the one it was made with). */
function startTurn(ready: Ready, disc: CompositedDisc): Animation | null {
  const first = disc.keyframes[0];
  const last = disc.keyframes.at(-1);
  const effect = ready.animation.effect;
  if (!first || !last || !(effect instanceof KeyframeEffect)) {
    ready.animation.cancel();
    return null;
  }
  effect.setKeyframes([{ transform: rotate(first.angle) }, { transform: rotate(last.angle) }]);
  effect.updateTiming({ duration: Math.max(last.t - first.t, 1) });
  // a paused animation given a start time runs from it
  ready.animation.startTime = first.t;
  return ready.animation;
}

/** Whether a staged disc shows what a play's disc shows: the same image in the same box. */
function sameFace(a: CompositedDisc, b: CompositedDisc): boolean {
  return a.image === b.image && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/**
 * A staged disc: on the page under the canvas, painted on its own layer, unseen (opacity 0, which the
 * compositor changes without a repaint) until a play turns it. `data-staged` says which: `idle` or `shown`.
 */
interface Staged {
  disc: CompositedDisc;
  element: HTMLDivElement;
  /** Its next turn, made ready (see readyTurn); a play takes it. */
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
      staged.ready = readyTurn(staged.element, staged.disc.easing);
    }, READY_AGAIN_MS);
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
        if (!('kind' in layer)) return false;
        const at = free.findIndex((s) => sameFace(s.disc, layer));
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
        if ('kind' in layer) {
          const staged = entry.staged.find((s) => !entry.turning.includes(s) && sameFace(s.disc, layer));
          const element = staged?.element ?? discElement(layer);
          const ready = staged?.ready ?? null;
          if (staged) {
            staged.ready = null;
            setStagedShown(staged, true);
            entry.turning.push(staged);
          } else {
            entry.root.append(element);
            entry.built.push(element);
          }
          if (ready && ready.easing !== layer.easing) ready.animation.cancel();
          const animation =
            ready && ready.easing === layer.easing ? startTurn(ready, layer) : turn(element, layer);
          if (animation) entry.animations.push(animation);
        } else {
          const { band, animation } = stripElement(layer);
          entry.root.append(band);
          entry.built.push(band);
          if (animation) entry.animations.push(animation);
        }
      }
    },
    standBy(surface, discs) {
      const entry = discs.length > 0 ? layersOf(surface) : (surfaces.get(surface) ?? null);
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
      for (const disc of discs) {
        const element = discElement(disc);
        // its own layer, painted while unseen, so showing it is an opacity change for the compositor
        element.style.willChange = 'transform, opacity';
        const staged: Staged = { disc, element, ready: null, dropped: false };
        setStagedShown(staged, false);
        entry.root.append(element);
        staged.ready = readyTurn(element, disc.easing);
        kept.push(staged);
      }
      entry.staged = kept;
      if (kept.length === 0 && entry.built.length === 0 && entry.turning.length === 0) close(surface);
    },
    hide,
    close,
  };
}
