import type * as PixiModule from 'pixi.js';
import { beforeAll, describe, expect, it } from 'vitest';

// Pixi's canvas graphics pipe with a stand-in for the renderer parts it touches (no canvas in node): the
// Graphics, its destruction and the GC hash are Pixi's own. See scenes/shared/canvas-graphics.ts.

type Pixi = typeof PixiModule;
type Pipe = InstanceType<Pixi['CanvasGraphicsPipe']>;
type AddRenderable = Pipe['addRenderable'];

let pixi: Pixi;
let shipped: AddRenderable;

beforeAll(async () => {
  // pixi.js reads navigator while it loads; node before 21 has none
  if (!('navigator' in globalThis))
    Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'node' }, configurable: true });
  pixi = await import('pixi.js');
  shipped = pixi.CanvasGraphicsPipe.prototype.addRenderable;
  (await import('../../scenes/shared/canvas-graphics.ts')).releaseDestroyedCanvasGraphics();
});

function canvasPipe(): { pipe: Pipe; held: () => number } {
  const renderer = {
    uid: 7,
    runners: { contextChange: { add() {} } },
    gc: { now: 0, addResourceHash() {} },
    renderPipes: { batch: { break() {} } },
  };
  const adaptor = { contextChange() {}, execute() {}, destroy() {} };
  const pipe = new pixi.CanvasGraphicsPipe(
    renderer as unknown as ConstructorParameters<Pixi['CanvasGraphicsPipe']>[0],
    adaptor as unknown as ConstructorParameters<Pixi['CanvasGraphicsPipe']>[1],
  );
  const hash = (pipe as unknown as { _managedGraphics: { items: Record<number, unknown> } })._managedGraphics;
  return { pipe, held: () => Object.values(hash.items).filter(Boolean).length };
}

const marker = () => new pixi.Graphics().rect(0, 0, 4, 100).fill(0xffffff);

describe('canvas graphics pipe', () => {
  it('as shipped, keeps a destroyed Graphics in its GC hash (drop the fix when this fails)', () => {
    const { pipe, held } = canvasPipe();
    const graphics = marker();
    shipped.call(pipe, graphics, new pixi.InstructionSet());
    graphics.destroy();
    expect(held()).toBe(1);
  });

  it('lets go of each Graphics it drew when the Graphics is destroyed', () => {
    const { pipe, held } = canvasPipe();
    // one marker per layout, as the roulette makes them
    for (let layout = 0; layout < 20; layout++) {
      const graphics = marker();
      pipe.addRenderable(graphics, new pixi.InstructionSet());
      pipe.addRenderable(graphics, new pixi.InstructionSet()); // drawn again: still one entry
      expect(held()).toBe(1);
      graphics.destroy();
      expect(held()).toBe(0);
    }
  });

  it('still tracks a Graphics drawn again after being unloaded', () => {
    const { pipe, held } = canvasPipe();
    const graphics = marker();
    pipe.addRenderable(graphics, new pixi.InstructionSet());
    graphics.unload();
    expect(held()).toBe(0);
    pipe.addRenderable(graphics, new pixi.InstructionSet());
    expect(held()).toBe(1);
    graphics.destroy();
    expect(held()).toBe(0);
  });
});
