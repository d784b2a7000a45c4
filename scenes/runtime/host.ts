// Pixi's shader and uniform code without string evaluation: the app's Content-Security-Policy allows no
// 'unsafe-eval' (and Pixi's own probe for it would be reported as a violation)
import 'pixi.js/unsafe-eval';
import {
  autoDetectRenderer,
  Container,
  DOMAdapter,
  Texture,
  Ticker,
  type ICanvas,
  type Renderer,
} from 'pixi.js';
import { autoRenderer, rendererOptions } from '../shared/renderer.ts';
import { RuntimeClock } from './clock.ts';
import type {
  ArtLoader,
  CompositedLayer,
  Scene,
  SceneContext,
  SceneId,
  SceneSize,
  SettledResult,
} from './contract.ts';
import { shiftLayer } from './composite-wire.ts';
import {
  OFFER_LEAD_MS,
  type FromRuntime,
  type RuntimeStats,
  type SceneEvent,
  type ToRuntime,
} from './protocol.ts';
import { sceneFactories } from './registry.ts';

/** Shortest time between two batched event messages of one surface while it moves, ms. */
const FLUSH_MS = 100;
/** While the page is hidden (no animation frames), moving scenes are still stepped this often, ms. */
const HIDDEN_STEP_MS = 200;
/**
 * Composited plays that end within this of each other (a battle round's reels, one per seat, started by
 * one answer) are taken back together and land in one frame, ms: a play that has ended waits that long at
 * most, its layers holding their last pose, for the others.
 */
const LAND_TOGETHER_MS = 50;
/**
 * Trace marks around a play (read by the frames benchmark from a Chrome trace): `scene:motion` right after
 * drawing the first frame of a play whose pose has left its start, `scene:settled` when it ends. Made on whichever thread the host runs.
 */
const MOTION_MARK = 'scene:motion';
const SETTLED_MARK = 'scene:settled';

export interface HostOptions {
  /** Sends a message to the app. */
  post(message: FromRuntime): void;
  /** Decodes an image the runtime cannot decode itself (SVG in a worker): the app's main thread does it. */
  requestArt(url: string): Promise<ImageBitmap | null>;
  /**
   * The page's compositor: plays whose moving parts are strips of baked cards or a wheel's baked face are
   * handed to it, so no script runs per frame while they spin (neither the page's nor, in a worker, the
   * canvas's frames that the page would present). On the page's own thread it is the page's; a worker
   * reaches it through messages (remote-compositor.ts).
   */
  compositor?: Compositor;
}

/** Moves composited strips and discs on the page (the app implements it with the DOM and Web Animations). */
export interface Compositor {
  /** Gets an encoded strip or face image ready to show (decoded ahead of the play that shows it). */
  preload(image: Blob): void;
  /**
   * Shows a surface's layers under its canvas, keyframes on the host's time line (performance.now()).
   * Returns nothing when they are on the page as it returns (the canvas's next frame and the layers reach
   * the screen together); or a promise that resolves once the page shows them (the canvas keeps drawing
   * them until then, so the play's first frames never wait for the layers) and that never resolves if the
   * page drops them: the app's compositor on either path (from a worker through messages).
   */
  show(surface: number, layers: CompositedLayer[]): void | Promise<void>;
  /**
   * Gets a surface's discs and strips ready under its canvas, unseen, for a later show of the same image and
   * box (a strip: band, images and card places) to start moving at once (see SceneContext.standBy); [] lets
   * them go.
   */
  standBy(surface: number, layers: readonly CompositedLayer[]): void;
  /**
   * Removes a surface's layers, called right after the canvas has drawn a frame with them again (the page
   * of a worker waits a frame or two more, until that frame is on screen).
   */
  hide(surface: number): void;
  /**
   * Whether show() would put these layers on the page as it returns (discs and strips already staged under
   * the canvas, on the runtime's own thread): a play is then handed over before its first frame, which draws
   * the canvas without them. Absent: never (a worker's page shows them in a task of its own).
   */
  showsAtOnce?(surface: number, layers: readonly CompositedLayer[]): boolean;
}

interface Surface {
  id: number;
  scene: Scene | null;
  renderer: Renderer | null;
  stage: Container;
  clock: RuntimeClock;
  size: SceneSize;
  /** Commands run one after the other (prepare is asynchronous; play waits for it). */
  queue: Promise<void>;
  dirty: boolean;
  animating: boolean;
  closed: boolean;
  events: SceneEvent[];
  ticks: { count: number; last: number };
  lastFlush: number;
  watch: boolean;
  frameTimes: number[];
  lastFrameAt: number | undefined;
  /** A play was asked for and its first moving frame is not drawn yet. */
  playPending: boolean;
  /** The current play has drawn a moving frame (marked `scene:motion`) and has not settled. */
  inMotion: boolean;
  /** The app has the current play's tick schedule: crossings are not reported one by one. */
  scheduled: boolean;
  /** The current play's strips are on the page's compositor: the timer that ends their hand-off. */
  composited: ReturnType<typeof setTimeout> | null;
  /** When the composited play's last keyframe passes (performance.now()), null when not composited. */
  landsAt: number | null;
  /** The composited play's layers all hold their last pose (CompositedDisc.holds): it rests on the page. */
  holds: boolean;
  /** A holding play has ended and its discs rest on the page, off the canvas, until taken back. */
  resting: boolean;
  /** The scene is stepped without a frame drawn (a holding play's landing): what it invalidates is not drawn. */
  stepping: boolean;
  /** The current play's strips were sent to the page, which has not said it shows them: the hand-off's number. */
  offered: number | null;
  /** Hand-offs offered so far (an answer for an older one is ignored). */
  offers: number;
  /** The strips were taken back: remove them from the page once the canvas has drawn them again. */
  hideStrips: boolean;
  /** The play's hand-off waits for its first moving frame. */
  handOffPending: boolean;
  /** Counts the plays and the changes that take a play back: a hand-off made for an older one is dropped. */
  turn: number;
  /** The scene's last stand-by staged layers on the page (a wheel's face, a reel's strips). */
  layersStaged: boolean;
}

/**
 * The scene runtime: hosts every scene on screen, runs the one frame loop (requestAnimationFrame while
 * something moves, nothing at idle), and speaks the protocol in protocol.ts. The same class runs in the
 * worker (worker.ts) and, where a worker cannot draw, on the main thread (scenes/main-thread).
 */
export class SceneHost {
  private readonly surfaces = new Map<number, Surface>();
  private readonly artCache = new Map<string, Promise<Texture | null>>();
  private readonly stripImageCache = new WeakMap<Texture, Promise<Blob | null>>();
  private frames = 0;
  /** Animation-frame callbacks (and hidden steps) run so far. */
  private loops = 0;
  private scheduled = 0;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  private visible = true;

  constructor(private readonly options: HostOptions) {
    // Pixi's own shared tickers would request a frame 60 times a second forever: the host draws on demand
    Ticker.shared.autoStart = false;
    Ticker.shared.stop();
    Ticker.system.autoStart = false;
    Ticker.system.stop();
  }

  readonly art: ArtLoader = (url) => {
    if (!url) return Promise.resolve(null);
    let texture = this.artCache.get(url);
    if (!texture) {
      texture = this.decode(url)
        .then((bitmap) => (bitmap ? Texture.from(bitmap) : null))
        .catch(() => null); // a failed image falls back to a placeholder (spec §8)
      this.artCache.set(url, texture);
    }
    return texture;
  };

  private async decode(url: string): Promise<ImageBitmap | null> {
    const response = await DOMAdapter.get().fetch(url);
    if (!response.ok) return null;
    const blob = await response.blob();
    if (!blob.type.includes('svg')) {
      try {
        return await createImageBitmap(blob);
      } catch {
        // fall through: let the main thread try
      }
    }
    return this.options.requestArt(url);
  }

  handle(message: ToRuntime): void {
    switch (message.type) {
      case 'mount':
        this.mount(message.surface, message.scene, message.canvas as ICanvas, message.size, message.renderer);
        return;
      case 'visibility':
        this.visible = message.visible;
        this.schedule();
        return;
      case 'stats':
        this.options.post({ type: 'stats', request: message.request, stats: this.stats() });
        return;
      case 'art':
      case 'shown':
        return; // answered through requestArt, and the worker's compositor
    }
    const surface = this.surfaces.get(message.surface);
    if (!surface) return;
    switch (message.type) {
      case 'prepare':
        this.enqueue(surface, async (scene) => {
          this.uncomposite(surface);
          await scene.prepare(message.plan);
          this.emit(surface, { type: 'prepared' });
          this.invalidate(surface);
        });
        return;
      case 'play':
        this.enqueue(surface, (scene) => {
          this.uncomposite(surface);
          surface.playPending = true;
          scene.play(surface.clock.now() + (this.offersAsPlayStarts(surface, scene) ? OFFER_LEAD_MS : 0));
          this.sendSchedule(surface, scene);
          // the play's layers go to the page as it starts where they cost the first frame nothing: on the
          // page's own thread, those it shows at once (that frame is then the canvas's last of the turn);
          // from a worker, the offer of what the page has staged, OFFER_LEAD_MS before the motion starts (the
          // page gets them on screen while this thread still draws the rest pose, so its work for them is
          // done before the motion, not while it runs). Otherwise the first frame is drawn before they are
          // made and handed over, in a task after it: the motion never waits
          surface.handOffPending = !this.composite(surface, scene, true) && surface.offered === null;
          this.animate(surface);
        });
        return;
      case 'resize':
        surface.size = message.size;
        this.enqueue(surface, (scene) => {
          this.uncomposite(surface);
          surface.renderer?.resize(message.size.width, message.size.height, message.size.dpr);
          scene.resize(message.size);
          this.invalidate(surface);
        });
        return;
      case 'configure':
        this.enqueue(surface, (scene) => {
          this.cancelSchedule(surface);
          this.uncomposite(surface);
          scene.configure(message.config);
          this.animate(surface);
        });
        return;
      case 'clock':
        this.cancelSchedule(surface);
        this.uncomposite(surface);
        if (message.rate !== undefined) surface.clock.setRate(message.rate);
        if (message.paused !== undefined) surface.clock.setPaused(message.paused);
        if (message.seek !== undefined) surface.clock.seekInSpin(message.seek);
        this.progress(surface, true);
        this.animate(surface);
        return;
      case 'watch':
        surface.watch = message.progress;
        if (surface.watch) this.uncomposite(surface);
        return;
      case 'unmount':
        this.unmount(surface);
        return;
    }
  }

  private mount(
    id: number,
    sceneId: SceneId,
    canvas: ICanvas,
    size: SceneSize,
    preference: Parameters<typeof rendererOptions>[0],
  ): void {
    const surface: Surface = {
      id,
      scene: null,
      renderer: null,
      stage: new Container(),
      clock: new RuntimeClock(),
      size,
      queue: Promise.resolve(),
      dirty: false,
      animating: false,
      closed: false,
      events: [],
      ticks: { count: 0, last: -1 },
      lastFlush: 0,
      watch: false,
      frameTimes: [],
      lastFrameAt: undefined,
      playPending: false,
      inMotion: false,
      scheduled: false,
      composited: null,
      landsAt: null,
      holds: false,
      resting: false,
      stepping: false,
      offered: null,
      offers: 0,
      hideStrips: false,
      handOffPending: false,
      turn: 0,
      layersStaged: false,
    };
    this.surfaces.set(id, surface);
    surface.queue = (async () => {
      const renderer = await autoDetectRenderer({
        canvas,
        width: size.width,
        height: size.height,
        resolution: size.dpr,
        antialias: true,
        backgroundAlpha: 0,
        autoDensity: false,
        ...rendererOptions(preference ?? autoRenderer()),
      });
      if (surface.closed) {
        renderer.destroy();
        return;
      }
      // scenes take no input (the app's buttons do): Pixi's pointer listeners, on the page's window where
      // the host runs on the main thread, would run on every tap of the page, before its click
      renderer.events?.setTargetElement(
        null as unknown as Parameters<typeof renderer.events.setTargetElement>[0],
      );
      surface.renderer = renderer;
      surface.scene = sceneFactories[sceneId](this.context(surface, renderer));
      this.emit(surface, { type: 'ready', renderer: renderer.name });
      this.flush(surface);
    })().catch((error: unknown) => this.fail(surface, error));
  }

  private context(surface: Surface, renderer: Renderer): SceneContext {
    const emit = (event: SceneEvent) => this.emit(surface, event);
    const flush = () => this.flush(surface);
    return {
      renderer,
      stage: surface.stage,
      clock: surface.clock,
      art: this.art,
      get size() {
        return surface.size;
      },
      invalidate: () => this.invalidate(surface),
      animate: () => this.animate(surface),
      tick(index) {
        if (surface.scheduled) return;
        surface.ticks.count += 1;
        surface.ticks.last = index;
      },
      started(startAt) {
        surface.clock.spinStart = startAt;
        emit({ type: 'started', at: startAt });
      },
      settled: (result: SettledResult) => {
        surface.scheduled = false;
        this.markSettled(surface);
        emit({ type: 'settled', result });
        flush();
      },
      stripImages: (textures) => this.stripImages(renderer, textures),
      standBy: (layers) => {
        if (surface.closed) return;
        surface.layersStaged = layers.length > 0;
        this.options.compositor?.standBy(surface.id, layers);
      },
      composites: this.options.compositor !== undefined,
    };
  }

  /** Each texture encoded once (PNG) and handed to the compositor to decode ahead; [] without one. */
  private stripImages(renderer: Renderer, textures: readonly Texture[]): Promise<(Blob | null)[]> {
    const { compositor } = this.options;
    if (!compositor) return Promise.resolve([]);
    return Promise.all(
      textures.map((texture) => {
        let image = this.stripImageCache.get(texture);
        if (!image) {
          image = encodeTexture(renderer, texture)
            .then((blob) => {
              if (blob) compositor.preload(blob);
              return blob;
            })
            .catch(() => null); // a card that cannot be read shows blank, as a failed bake does
          this.stripImageCache.set(texture, image);
        }
        return image;
      }),
    );
  }

  /**
   * Hands a play's strips or discs to the page's compositor when the scene has them and the clock runs in
   * real time. The debug switcher's slowed, paused or scrubbed clock, and its frame graph (a watched surface:
   * it times the runtime's own frames), keep the runtime drawing. One frame redraws the canvas without
   * them; the next is drawn when the last keyframe has passed, and settles the play. Returns whether the
   * runtime stops drawing the play now: a worker's page shows the layers in a task of its own, so the
   * canvas goes on drawing them, frame by frame, until the page says they are on screen (handOver()).
   * `asPlayStarts` (before the play's first frame): on the page's own thread, only if the page shows them as
   * it returns; a worker's page is offered them now if it has the scene's layers staged (see
   * offersAsPlayStarts).
   */
  private composite(surface: Surface, scene: Scene, asPlayStarts = false): boolean {
    const { compositor } = this.options;
    if (!compositor || !this.composites(surface, scene)) return false;
    const { clock } = surface;
    const onlyAtOnce = asPlayStarts && compositor.showsAtOnce !== undefined;
    if (asPlayStarts && !onlyAtOnce && !this.offersAsPlayStarts(surface, scene)) return false;
    const layers = scene.composite(true);
    const end = Math.max(...layers.flatMap((layer) => layer.keyframes.map((k) => k.t)));
    if (layers.length === 0 || !Number.isFinite(end)) {
      if (layers.length > 0) scene.composite(false);
      return false;
    }
    const offset = performance.now() - clock.now();
    const shifted = layers.map((layer) => shiftLayer(layer, offset));
    if (onlyAtOnce && !compositor.showsAtOnce?.(surface.id, shifted)) {
      scene.composite(false);
      return false;
    }
    const shown = compositor.show(surface.id, shifted);
    surface.hideStrips = false;
    if (shown) {
      // drawn here until the page has them: the layers under the canvas are covered by the same pose
      scene.composite(false);
      const offer = ++surface.offers;
      surface.offered = offer;
      void shown.then(() => this.handOver(surface, offer, end));
      return false;
    }
    this.handedOver(surface, end, holding(layers));
    return true;
  }

  /** Whether a play of the scene may go to the page's compositor now: real time, nobody timing its frames. */
  private composites(
    surface: Surface,
    scene: Scene,
  ): scene is Scene & { composite: NonNullable<Scene['composite']> } {
    const { clock } = surface;
    return (
      this.options.compositor !== undefined &&
      scene.composite !== undefined &&
      !surface.watch &&
      clock.rate === 1 &&
      !clock.isPaused
    );
  }

  /**
   * Whether a play starting now is offered to a worker's page before its first frame: when the page has the
   * scene's layers staged (a wheel's face, a reel's strips: showing them is an opacity change, a strip's
   * changed cards and an animation). Such a play starts OFFER_LEAD_MS later, so the page's part of the
   * hand-off runs while the canvas still shows the rest pose; making a reel's strips here holds the first
   * frame, which only draws that rest pose again.
   */
  private offersAsPlayStarts(surface: Surface, scene: Scene): boolean {
    return (
      this.composites(surface, scene) &&
      this.options.compositor!.showsAtOnce === undefined &&
      surface.layersStaged
    );
  }

  /** After the frame just drawn (the play's first moving one), the play goes to the compositor if it can. */
  private handOffLater(surface: Surface): void {
    surface.handOffPending = false;
    const turn = surface.turn;
    setTimeout(() => {
      const { scene } = surface;
      if (surface.closed || !scene || turn !== surface.turn || !surface.inMotion) return;
      if (surface.composited !== null || surface.offered !== null) return;
      if (this.composite(surface, scene)) surface.animating = false;
    }, 0);
  }

  /** The page shows an offered play's layers: the canvas stops drawing them, unless it is too late. */
  private handOver(surface: Surface, offer: number, end: number): void {
    if (surface.closed || surface.offered !== offer || !surface.scene?.composite) return;
    surface.offered = null;
    const layers = end > surface.clock.now() ? surface.scene.composite(true) : [];
    if (layers.length === 0) {
      // the play has ended (or nearly) while the page got them ready: they go as the canvas draws on
      surface.hideStrips = true;
      this.invalidate(surface);
      return;
    }
    this.handedOver(surface, end, holding(layers));
  }

  /**
   * The play's layers move on the page: one frame draws the canvas without them, the next ends the play
   * (none where they hold: see rest()).
   */
  private handedOver(surface: Surface, end: number, holds: boolean): void {
    const landsAt = performance.now() + Math.max(end - surface.clock.now(), 0);
    surface.landsAt = landsAt;
    surface.holds = holds;
    surface.composited = setTimeout(() => this.land(surface), Math.ceil(landsAt - performance.now()));
    this.invalidate(surface);
  }

  /**
   * A composited play's last keyframe has passed: its layers are taken back, as a change mid-spin does, and
   * with them those of every other play that has ended, so they land in one frame (one canvas draw and one
   * commit of the page, not one each). A play still moving that ends within LAND_TOGETHER_MS is waited for.
   */
  private land(surface: Surface): void {
    const now = performance.now();
    let wait = -Infinity;
    for (const other of this.surfaces.values()) {
      const at = other.landsAt;
      if (other === surface || other.composited === null || at === null) continue;
      if (at > now && at <= surface.landsAt! + LAND_TOGETHER_MS) wait = Math.max(wait, at);
    }
    if (wait > now) {
      // (timers round their delay down to whole milliseconds: rounded up, this one never fires early)
      surface.composited = setTimeout(() => this.land(surface), Math.ceil(wait - now));
      return;
    }
    for (const other of [...this.surfaces.values()])
      if (other.composited !== null && other.landsAt !== null && other.landsAt <= now) {
        if (other.holds) this.rest(other);
        else this.uncomposite(other);
      }
  }

  /**
   * A holding play's last keyframe has passed (see CompositedDisc.holds): its discs stay on the page at
   * their last angle, which is the scene's rest pose. The scene is stepped to its end, so it settles and
   * reports, and no frame is drawn: the canvas shows nothing new as a wheel stops (on the main-thread path
   * a landing drawn on the canvas was a canvas draw and a page commit at the spin's very end).
   */
  private rest(surface: Surface): void {
    const { scene } = surface;
    if (surface.composited !== null) clearTimeout(surface.composited);
    surface.composited = null;
    surface.landsAt = null;
    surface.holds = false;
    if (!scene) return;
    surface.resting = true;
    surface.stepping = true;
    let moving: boolean;
    try {
      moving = scene.frame(surface.clock.now());
    } finally {
      surface.stepping = false;
    }
    // not at its end after all (a clock that ran late): the canvas draws the rest of it
    if (moving) this.uncomposite(surface);
    else this.flush(surface);
  }

  /**
   * Takes a play's strips back from the compositor (a change mid-spin), or a held play's discs at rest (a
   * change of the rest pose): frames draw the rest of it.
   */
  private uncomposite(surface: Surface): void {
    surface.turn += 1;
    surface.handOffPending = false;
    if (surface.resting) {
      surface.resting = false;
      surface.scene?.composite?.(false);
      surface.hideStrips = true;
      this.animate(surface);
      return;
    }
    if (surface.offered !== null) {
      // offered and not shown yet: the canvas still draws them; the page drops them after its next frame
      surface.offered = null;
      surface.hideStrips = true;
      this.invalidate(surface);
      return;
    }
    if (surface.composited === null) return;
    clearTimeout(surface.composited);
    surface.composited = null;
    surface.landsAt = null;
    surface.holds = false;
    surface.scene?.composite?.(false);
    surface.hideStrips = true;
    this.animate(surface);
  }

  /**
   * Sends a play's tick schedule as it starts, so the app plans every tick ahead and the spin sends no
   * message per crossing. Only on a real-time clock: a slowed or paused one (the debug switcher) ticks live.
   */
  private sendSchedule(surface: Surface, scene: Scene): void {
    const { clock } = surface;
    surface.scheduled = false;
    if (clock.rate !== 1 || clock.isPaused) return;
    const offset = performance.timeOrigin + performance.now() - clock.now();
    const times = scene.ticks().map((t) => t + offset);
    if (times.length === 0) return;
    surface.scheduled = true;
    surface.ticks = { count: 0, last: -1 };
    this.emit(surface, { type: 'ticks', times });
    this.flush(surface);
  }

  /** The clock or the motion changed under a scheduled play: the app drops the schedule, ticks go live. */
  private cancelSchedule(surface: Surface): void {
    if (!surface.scheduled) return;
    surface.scheduled = false;
    this.emit(surface, { type: 'ticks', times: [] });
    this.flush(surface);
  }

  private enqueue(surface: Surface, run: (scene: Scene) => void | Promise<void>): void {
    surface.queue = surface.queue
      .then(async () => {
        if (surface.closed || !surface.scene) return;
        await run(surface.scene);
      })
      .catch((error: unknown) => this.fail(surface, error));
  }

  private fail(surface: Surface, error: unknown): void {
    this.emit(surface, { type: 'error', message: error instanceof Error ? error.message : String(error) });
    this.flush(surface);
  }

  private unmount(surface: Surface): void {
    surface.closed = true;
    if (surface.composited !== null) clearTimeout(surface.composited);
    surface.composited = null;
    surface.landsAt = null;
    surface.resting = false;
    surface.offered = null;
    this.options.compositor?.hide(surface.id);
    this.options.compositor?.standBy(surface.id, []);
    this.surfaces.delete(surface.id);
    void surface.queue.then(() => {
      surface.scene?.destroy();
      surface.stage.destroy({ children: true });
      surface.renderer?.destroy();
    });
  }

  private invalidate(surface: Surface): void {
    if (surface.stepping) return;
    surface.dirty = true;
    this.schedule();
  }

  private animate(surface: Surface): void {
    surface.animating = true;
    surface.lastFrameAt = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.hiddenTimer !== undefined) return;
    const wanted = [...this.surfaces.values()].some((s) => s.animating || s.dirty);
    if (!wanted) return;
    if (this.visible) this.scheduled = requestAnimationFrame(this.frame);
    else this.hiddenTimer = setTimeout(this.step, HIDDEN_STEP_MS);
  }

  /** One animation frame: every surface that moves or changed is drawn once. */
  private readonly frame = (now: number) => {
    this.scheduled = 0;
    this.loops += 1;
    for (const surface of this.surfaces.values()) {
      if (!surface.scene || !surface.renderer || !(surface.animating || surface.dirty)) continue;
      const at = surface.clock.now();
      const moving = surface.scene.frame(at);
      surface.dirty = false;
      surface.renderer.render(surface.stage);
      this.frames += 1;
      if (moving) this.markMotion(surface, at);
      // while the compositor moves the strips, nothing is drawn until the hand-off ends (once the play's
      // first moving frame is marked: a scene's lead holds the rest pose for a frame or two)
      surface.animating =
        moving && !surface.clock.isPaused && (surface.composited === null || surface.playPending);
      if (surface.handOffPending && !surface.playPending) this.handOffLater(surface);
      if (surface.hideStrips) {
        surface.hideStrips = false;
        this.options.compositor?.hide(surface.id);
      }
      if (surface.watch && surface.lastFrameAt !== undefined)
        surface.frameTimes.push(now - surface.lastFrameAt);
      surface.lastFrameAt = surface.animating ? now : undefined;
      this.progress(surface, !surface.animating);
      if (!surface.animating || now - surface.lastFlush >= FLUSH_MS) this.flush(surface, now);
    }
    this.schedule();
  };

  /** While hidden: step moving scenes without drawing, so they still settle and report. */
  private readonly step = () => {
    this.hiddenTimer = undefined;
    this.loops += 1;
    for (const surface of this.surfaces.values()) {
      if (!surface.scene || !surface.animating) continue;
      const at = surface.clock.now();
      const moving = surface.scene.frame(at);
      if (moving) this.markMotion(surface, at);
      surface.animating = moving && !surface.clock.isPaused && surface.composited === null;
      surface.dirty = true;
      this.flush(surface);
    }
    this.schedule();
  };

  /**
   * Marks the play's first frame that shows it moved: drawn (the mark follows the render, so the frame is on
   * its way to the screen) at a time past the spin's start (a scene's lead before it draws the rest pose).
   */
  private markMotion(surface: Surface, at: number): void {
    const start = surface.clock.spinStart;
    if (!surface.playPending || start === null || !(at > start)) return;
    surface.playPending = false;
    surface.inMotion = true;
    performance.mark(MOTION_MARK);
  }

  private markSettled(surface: Surface): void {
    // a play that settled before drawing a moving frame made no `scene:motion`: no pair to close
    const moved = surface.inMotion;
    surface.playPending = false;
    surface.inMotion = false;
    if (moved) performance.mark(SETTLED_MARK);
  }

  private progress(surface: Surface, force: boolean): void {
    if (!surface.watch || (!force && performance.now() - surface.lastFlush < FLUSH_MS)) return;
    surface.events.push({
      type: 'progress',
      elapsed: surface.clock.elapsed(),
      paused: surface.clock.isPaused,
      rate: surface.clock.rate,
      frameTimes: surface.frameTimes.splice(0),
    });
    if (force) this.flush(surface);
  }

  private emit(surface: Surface, event: SceneEvent): void {
    if (event.type !== 'tick') this.takeTicks(surface);
    surface.events.push(event);
  }

  private takeTicks(surface: Surface): void {
    if (surface.ticks.count === 0) return;
    surface.events.push({ type: 'tick', ...surface.ticks });
    surface.ticks = { count: 0, last: -1 };
  }

  private flush(surface: Surface, now = performance.now()): void {
    this.takeTicks(surface);
    surface.lastFlush = now;
    if (surface.events.length === 0) return;
    const events = surface.events.splice(0);
    this.options.post({ type: 'events', surface: surface.id, events, frames: this.frames, loop: this.loops });
  }

  stats(): RuntimeStats {
    return {
      frames: this.frames,
      surfaces: this.surfaces.size,
      renderers: [...this.surfaces.values()].map((s) => s.renderer?.name ?? 'none'),
      running: this.scheduled !== 0 || this.hiddenTimer !== undefined,
    };
  }
}

/** Whether every one of a play's layers holds its last pose (see CompositedDisc.holds). */
function holding(layers: readonly CompositedLayer[]): boolean {
  return layers.length > 0 && layers.every((layer) => 'kind' in layer && layer.holds === true);
}

/** A texture as a PNG, read back once through the renderer that baked it. */
async function encodeTexture(renderer: Renderer, texture: Texture): Promise<Blob | null> {
  if (texture === Texture.EMPTY) return null;
  const canvas = renderer.extract.canvas(texture);
  if (canvas.convertToBlob) return canvas.convertToBlob({ type: 'image/png' });
  const toBlob = canvas.toBlob?.bind(canvas);
  if (!toBlob) return null;
  return new Promise((resolve) => toBlob(resolve, 'image/png'));
}
