import { describe, expect, it } from 'vitest';
import { receivedLayers, sendLayers, shiftLayer } from '../../scenes/runtime/composite-wire.ts';
import type { CompositedDisc, CompositedLayer, CompositedStrip } from '../../scenes/runtime/contract.ts';
import type { FromRuntime, ToRuntime } from '../../scenes/runtime/protocol.ts';
import { remoteCompositor } from '../../scenes/runtime/remote-compositor.ts';
import { compositorPort, ownThreadCompositor } from '../../src/lib/scene/compositor-port.ts';

// The worker path's hand-off of a spin to the page's compositor, its pure parts: the layers' crossing from
// the worker's time line to the page's, the worker's messages, and the page's handling of them (its DOM
// compositor and its frames stand in as recorders; the browser tests run the real ones).

const card = new Blob(['card'], { type: 'image/png' });
const face = new Blob(['face'], { type: 'image/png' });

function strip(images: (Blob | null)[], times: number[]): CompositedStrip {
  return {
    x: 0,
    y: 10,
    width: 390,
    height: 120,
    images,
    cardWidth: 100,
    cardHeight: 110,
    cardY: 5,
    cards: [
      { image: 0, x: 0 },
      { image: 1, x: 104 },
    ],
    keyframes: times.map((t, i) => ({ t, x: i * 500 })),
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The face as a disc at rest in a box (a stand-by's disc: its keyframes are not used). */
const faceDisc = (x: number, y: number, width: number, height: number): CompositedDisc => ({
  kind: 'disc',
  x,
  y,
  width,
  height,
  image: face,
  keyframes: [],
});

describe('composited layers between a worker and the page', () => {
  it('shifts every keyframe time and keeps the values', () => {
    const shifted = shiftLayer({ kind: 'disc' as const, keyframes: [{ t: 5, angle: 30 }] }, 100);
    expect(shifted.keyframes).toEqual([{ t: 105, angle: 30 }]);
  });

  it('lands each keyframe at the same moment on the page’s time line, images named by number', () => {
    // the worker started 1234.5 ms after the page: its now() reads that much less at the same moment
    const pageOrigin = 1_795_714_000_000.25;
    const workerOrigin = pageOrigin + 1234.5;
    const numbers = new Map<Blob, number>([
      [card, 1],
      [face, 2],
    ]);
    const layers: CompositedLayer[] = [
      strip([card, null], [1000, 1500, 11_000]),
      {
        kind: 'disc',
        x: 0,
        y: 0,
        width: 240,
        height: 240,
        image: face,
        keyframes: [{ t: 2000, angle: 720 }],
      },
    ];
    const sent = sendLayers(layers, (blob) => numbers.get(blob)!, workerOrigin);
    expect(sent[0]).toMatchObject({ images: [1, null] });
    expect(sent[1]).toMatchObject({ kind: 'disc', image: 2 });
    // structured clone: plain data only
    expect(structuredClone(sent)).toEqual(sent);

    const blobs = new Map([...numbers].map(([blob, n]) => [n, blob]));
    const shown = receivedLayers(sent, (n) => blobs.get(n), pageOrigin);
    const [reel, disc] = shown as [CompositedStrip, Extract<CompositedLayer, { kind: 'disc' }>];
    expect(reel.images).toEqual([card, null]);
    expect(reel.keyframes.map((k) => k.t)).toEqual([2234.5, 2734.5, 12_234.5]);
    expect(reel.keyframes.map((k) => k.x)).toEqual([0, 500, 1000]);
    expect(reel.cards).toEqual((layers[0] as CompositedStrip).cards);
    expect(disc.image).toBe(face);
    expect(disc.keyframes).toEqual([{ t: 3234.5, angle: 720 }]);
  });

  it('sends a holding disc’s landed image by number, and only a disc that has one', () => {
    const landedFace = new Blob(['landed']);
    const numbers = new Map<Blob, number>([
      [face, 2],
      [landedFace, 3],
    ]);
    const disc = (extra: Partial<CompositedDisc>): CompositedDisc => ({
      ...faceDisc(0, 0, 240, 240),
      keyframes: [{ t: 10, angle: 0 }],
      ...extra,
    });
    const sent = sendLayers(
      [disc({ holds: true, landedImage: landedFace }), disc({ holds: true }), disc({ landedImage: null })],
      (blob) => numbers.get(blob)!,
      0,
    );
    expect(sent[0]).toMatchObject({ holds: true, image: 2, landedImage: 3 });
    expect(sent[1]).not.toHaveProperty('landedImage');
    expect(sent[2]).toMatchObject({ landedImage: null });
    expect(structuredClone(sent)).toEqual(sent);

    const blobs = new Map([...numbers].map(([blob, n]) => [n, blob]));
    const [held, plain, blank] = receivedLayers(sent, (n) => blobs.get(n), 0) as CompositedDisc[];
    expect(held).toMatchObject({ holds: true, image: face, landedImage: landedFace });
    expect(plain).not.toHaveProperty('landedImage');
    expect(blank!.landedImage).toBeNull();
  });

  it('shows blank where the page does not hold an image', () => {
    const [reel] = receivedLayers(
      sendLayers([strip([card, card], [0, 10])], () => 7, 0),
      () => undefined,
      0,
    ) as [CompositedStrip];
    expect(reel.images).toEqual([null, null]);
  });
});

describe('the worker’s compositor', () => {
  function recorder() {
    const posted: FromRuntime[] = [];
    return { posted, compositor: remoteCompositor((message) => posted.push(message), 500) };
  }

  it('posts each image once, before any show that names it', () => {
    const { posted, compositor } = recorder();
    compositor.preload(card);
    compositor.preload(card);
    void compositor.show(1, [strip([card, face], [0, 100])]);
    expect(posted.map((m) => m.type)).toEqual(['preload', 'preload', 'show']);
    const [first, second, show] = posted as [
      Extract<FromRuntime, { type: 'preload' }>,
      Extract<FromRuntime, { type: 'preload' }>,
      Extract<FromRuntime, { type: 'show' }>,
    ];
    expect(first.blob).toBe(card);
    expect(second.blob).toBe(face);
    expect(show.layers[0]).toMatchObject({ images: [first.image, second.image] });
    // on the shared time line (the worker's origin added), packed (t, x) pairs
    expect([...show.layers[0]!.keyframes]).toEqual([500, 0, 600, 500]);
  });

  it('posts stood-by discs with their images by number, each image once', () => {
    const { posted, compositor } = recorder();
    const disc = faceDisc(1, 2, 3, 4);
    compositor.standBy(7, [disc]);
    compositor.standBy(7, [disc]);
    compositor.standBy(7, []);
    expect(posted.map((m) => m.type)).toEqual(['preload', 'stand-by', 'stand-by', 'stand-by']);
    const number = (posted[0] as Extract<FromRuntime, { type: 'preload' }>).image;
    expect(posted[1]).toEqual({
      type: 'stand-by',
      surface: 7,
      layers: [{ ...disc, image: number, keyframes: new Float64Array() }],
    });
    expect(posted[3]).toEqual({ type: 'stand-by', surface: 7, layers: [] });
  });

  it('resolves a show when the page answers it, and never once a later show or hide replaced it', async () => {
    const { posted, compositor } = recorder();
    const answered: string[] = [];
    void compositor.show(1, [strip([card], [0, 100])])!.then(() => answered.push('first'));
    void compositor.show(1, [strip([card], [0, 100])])!.then(() => answered.push('second'));
    void compositor.show(2, [strip([card], [0, 100])])!.then(() => answered.push('other surface'));
    const shows = posted.filter((m): m is Extract<FromRuntime, { type: 'show' }> => m.type === 'show');
    expect(new Set(shows.map((m) => m.handoff)).size).toBe(3);
    for (const show of shows) compositor.shown(show.handoff);
    await flush();
    expect(answered.sort()).toEqual(['other surface', 'second']);

    void compositor.show(1, [strip([card], [0, 100])])!.then(() => answered.push('hidden'));
    const late = posted.at(-1) as Extract<FromRuntime, { type: 'show' }>;
    compositor.hide(1);
    expect(posted.at(-1)).toEqual({ type: 'hide', surface: 1 });
    compositor.shown(late.handoff);
    await flush();
    expect(answered).not.toContain('hidden');
  });
});

describe('the page’s end of the compositor messages', () => {
  function page(options: { decoded?: Promise<void> } = {}) {
    const calls: string[] = [];
    const sent: ToRuntime[] = [];
    const shown: CompositedLayer[][] = [];
    const released: Blob[] = [];
    const standing: (readonly CompositedLayer[])[] = [];
    let frames: (() => void)[] = [];
    const port = compositorPort({
      compositor: {
        preload: () => calls.push('preload'),
        show: (surface, layers) => {
          calls.push(`show ${surface}`);
          shown.push(layers);
        },
        hide: (surface) => calls.push(`hide ${surface}`),
        standBy: (surface, layers) => {
          calls.push(`stand-by ${surface} ${layers.length}`);
          standing.push(layers);
        },
        close: (surface) => calls.push(`close ${surface}`),
      },
      send: (message) => sent.push(message),
      decoded: () => options.decoded ?? Promise.resolve(),
      release: (blob) => released.push(blob),
      afterFrame: (callback) => frames.push(callback),
      timeOrigin: 100,
    });
    /** The page draws a frame: what waited for one runs. */
    const frame = () => {
      const due = frames;
      frames = [];
      for (const callback of due) callback();
    };
    return { port, calls, sent, shown, released, standing, frame };
  }

  const show = (surface: number, handoff: number): FromRuntime => ({
    type: 'show',
    surface,
    handoff,
    layers: sendLayers([strip([card], [200, 300])], () => 1, 0),
  });

  const standBy = (surface: number, image: number): FromRuntime => ({
    type: 'stand-by',
    surface,
    layers: [{ kind: 'disc', x: 0, y: 0, width: 240, height: 240, image, keyframes: new Float64Array() }],
  });

  it('stands discs by once decoded, and drops one still decoding when a newer one came', async () => {
    let decode!: () => void;
    const decoding = new Promise<void>((resolve) => (decode = resolve));
    const { port, calls, standing } = page({ decoded: decoding });
    port.handle({ type: 'preload', image: 1, blob: card });
    port.handle({ type: 'preload', image: 2, blob: face });
    expect(port.handle(standBy(3, 1))).toBe(true);
    port.handle(standBy(3, 2));
    port.handle(standBy(5, 1));
    await flush();
    expect(calls).toEqual(['preload', 'preload']);
    decode();
    await flush();
    expect(calls).toEqual(['preload', 'preload', 'stand-by 3 1', 'stand-by 5 1']);
    expect(standing.map((discs) => (discs[0] as CompositedDisc).image)).toEqual([face, card]);
  });

  it('shows the layers once decoded, on its own time line, and answers after the frame after the one that has them', async () => {
    const { port, calls, sent, shown, frame } = page();
    expect(port.handle({ type: 'preload', image: 1, blob: card })).toBe(true);
    expect(port.handle(show(3, 9))).toBe(true);
    await flush();
    expect(calls).toEqual(['preload', 'show 3']);
    expect((shown[0]![0] as CompositedStrip).images).toEqual([card]);
    expect(shown[0]![0]!.keyframes.map((k) => k.t)).toEqual([100, 200]);
    expect(sent).toEqual([]);
    frame(); // commits them; the page's compositor draws them once rasterized
    expect(sent).toEqual([]);
    frame();
    expect(sent).toEqual([{ type: 'shown', handoff: 9 }]);
  });

  it('removes the layers two frames after a hide (the canvas frame that draws them again is on screen)', async () => {
    const { port, calls, frame } = page();
    port.handle(show(3, 1));
    await flush();
    frame();
    port.handle({ type: 'hide', surface: 3 });
    frame();
    expect(calls).toEqual(['show 3']);
    frame();
    expect(calls).toEqual(['show 3', 'hide 3']);
  });

  it('drops a show whose images were still decoding when the worker took it back', async () => {
    let decode!: () => void;
    const { port, calls, sent, frame } = page({ decoded: new Promise((resolve) => (decode = resolve)) });
    port.handle(show(3, 1));
    port.handle({ type: 'hide', surface: 3 });
    decode();
    await flush();
    frame();
    frame();
    expect(calls.filter((call) => call.startsWith('show'))).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('keeps a newer show when an older hide comes due', async () => {
    const { port, calls, frame } = page();
    port.handle({ type: 'hide', surface: 3 });
    port.handle(show(3, 2));
    await flush();
    frame();
    frame();
    expect(calls).toEqual(['show 3']);
  });

  it('removes a closing surface’s layers at once, lets released images go, and passes other messages on', async () => {
    const { port, calls, released } = page();
    port.handle({ type: 'preload', image: 1, blob: card });
    port.handle({ type: 'release', image: 1 });
    expect(released).toEqual([card]);
    port.handle(show(4, 1));
    port.handle(standBy(4, 1));
    port.close(4);
    await flush();
    expect(calls).toEqual(['preload', 'close 4']);
    expect(
      port.handle({
        type: 'stats',
        request: 1,
        stats: { frames: 0, surfaces: 0, renderers: [], running: false },
      }),
    ).toBe(false);
  });
});

describe('the page’s compositor for the runtime on its own thread', () => {
  /** Its compositor as a recorder; each show's images decode when `decode()` says so. */
  function ownThread(staged: (layers: readonly CompositedLayer[]) => boolean = () => false) {
    const calls: string[] = [];
    const pending: (() => void)[] = [];
    const compositor = ownThreadCompositor({
      compositor: {
        showsStaged: (_surface, layers) => staged(layers),
        preload: () => calls.push('preload'),
        show: (surface, layers) => calls.push(`show ${surface} ${layers.length}`),
        hide: (surface) => calls.push(`hide ${surface}`),
        standBy: (surface, discs) => calls.push(`stand-by ${surface} ${discs.length}`),
        close: (surface) => calls.push(`close ${surface}`),
      },
      decoded: () => new Promise<void>((resolve) => pending.push(resolve)),
    });
    const decode = async () => {
      for (const resolve of pending.splice(0)) resolve();
      await flush();
    };
    return { compositor, calls, decode };
  }

  it('puts the layers on the page once decoded and resolves then, with no page frame in between', async () => {
    const { compositor, calls, decode } = ownThread();
    let shown = false;
    void compositor.show(1, [strip([card], [0, 100])])?.then(() => (shown = true));
    await flush();
    expect(calls).toEqual([]); // the canvas goes on drawing them until their images are decoded
    expect(shown).toBe(false);
    await decode();
    expect(calls).toEqual(['show 1 1']);
    // the canvas's next frame, without them, is the page's frame that paints them
    expect(shown).toBe(true);
  });

  it('shows a play of staged discs at once: the runtime stops drawing it after the frame it draws now', async () => {
    const disc = faceDisc(0, 0, 10, 10);
    const { compositor, calls, decode } = ownThread((layers) => layers.every((l) => 'kind' in l));
    const turning = {
      ...disc,
      keyframes: [
        { t: 0, angle: 0 },
        { t: 100, angle: 90 },
      ],
    };
    expect(compositor.showsAtOnce?.(1, [turning])).toBe(true);
    expect(compositor.showsAtOnce?.(1, [strip([card], [0, 100])])).toBe(false);
    expect(compositor.show(1, [turning])).toBeUndefined();
    expect(calls).toEqual(['show 1 1']);
    // a later play of other layers waits for its images, as before
    let shown = false;
    void compositor.show(1, [strip([card], [0, 100])])?.then(() => (shown = true));
    expect(calls).toEqual(['show 1 1']);
    await decode();
    expect(calls).toEqual(['show 1 1', 'show 1 1']);
    expect(shown).toBe(true);
  });

  it('stands discs by once decoded, without waiting for a frame', async () => {
    const { compositor, calls, decode } = ownThread();
    const disc = faceDisc(0, 0, 10, 10);
    compositor.standBy(1, [disc]);
    compositor.standBy(2, [disc]);
    compositor.standBy(2, []);
    await decode();
    expect(calls).toEqual(['stand-by 1 1', 'stand-by 2 0']);
  });

  it('drops a show still waiting when the surface is hidden, and hides at once', async () => {
    const { compositor, calls, decode } = ownThread();
    let shown = false;
    void compositor.show(2, [strip([card], [0, 100])])?.then(() => (shown = true));
    compositor.hide(2);
    expect(calls).toEqual(['hide 2']);
    await decode();
    expect(calls).toEqual(['hide 2']);
    expect(shown).toBe(false);
  });
});
