import { CanvasGraphicsPipe, GraphicsGpuData } from 'pixi.js';

/**
 * Pixi 8.22's canvas renderer keeps every Graphics it has drawn, destroyed or not. Its graphics pipe puts each
 * Graphics it draws into the renderer's GC hash but, unlike the WebGL pipe, gives it no per-renderer data;
 * the hash's remove(), which runs when the Graphics is destroyed, finds no such data and returns without
 * removing the entry. Pixi's GC pass, which would sweep it later, never runs here either (it is driven by
 * Pixi's system ticker, which the scene host stops so that nothing draws at idle). On the canvas renderer
 * (what autoRenderer picks without a usable GPU) each roulette layout left its destroyed marker behind:
 * about 0.7 KB of the worker's heap per case opening, for as long as the surface lived.
 *
 * Giving each Graphics the canvas pipe draws an empty per-renderer entry, as the WebGL pipe does, lets its
 * destruction take it out of the hash. Applied once, when the scene runtime loads (renderer.ts imports
 * this). tests/unit/canvas-graphics.test.ts says when a Pixi release no longer needs it.
 */
let applied = false;

export function releaseDestroyedCanvasGraphics(): void {
  if (applied) return;
  applied = true;
  const addRenderable = CanvasGraphicsPipe.prototype.addRenderable;
  CanvasGraphicsPipe.prototype.addRenderable = function (this: CanvasGraphicsPipe, graphics, instructionSet) {
    graphics._gpuData[this.renderer.uid] ??= new GraphicsGpuData();
    addRenderable.call(this, graphics, instructionSet);
  };
}
