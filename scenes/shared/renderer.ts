import type { RendererPreference } from 'pixi.js';

/**
 * Which renderer a scene asks for. Pixi falls back through the others in order (webgl, webgpu, canvas) when
 * the preferred one is unavailable. The canvas 2D renderer is part of pixi.js v8 (autoDetectRenderer loads it
 * on demand, no extra import); on phones without a usable GPU it is often the cheapest (see DESIGN.md).
 */
export type RendererChoice = RendererPreference;

export const defaultRenderer: RendererChoice = 'webgl';

/** Options for Application.init() (or the @pixi/react <Application> props) selecting the renderer. */
export function rendererOptions(choice: RendererChoice = defaultRenderer) {
  // pixi.js accepts 'canvas', but @pixi/react 8.0.5 typed `preference` as 'webgl' | 'webgpu' only
  return { preference: choice as 'webgl' | 'webgpu' };
}
