import { DOMAdapter, type RendererPreference } from 'pixi.js';
import { releaseDestroyedCanvasGraphics } from './canvas-graphics.ts';

// before any renderer exists: see canvas-graphics.ts
releaseDestroyedCanvasGraphics();

/**
 * Which renderer a scene asks for. Pixi falls back through the others in order (webgl, webgpu, canvas) when
 * the preferred one is unavailable. The canvas 2D renderer is part of pixi.js v8 (autoDetectRenderer loads it
 * on demand, no extra import); on phones without a usable GPU it is often the cheapest (see DESIGN.md).
 */
export type RendererChoice = RendererPreference;

const defaultRenderer: RendererChoice = 'webgl';

/** Options for autoDetectRenderer() selecting the renderer. */
export function rendererOptions(choice: RendererChoice = defaultRenderer) {
  return { preference: choice };
}

/** Renderer strings of WebGL implemented in software on the CPU (no GPU, or a blocked one). */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software/i;

/**
 * The renderer to use when the app asks for none: WebGL, unless WebGL here is a software rasterizer
 * (SwiftShader on a machine without a usable GPU), where Pixi's canvas 2D renderer draws the same scenes
 * several times cheaper (DESIGN.md, "What we measured").
 */
export function autoRenderer(): RendererChoice {
  try {
    const canvas = DOMAdapter.get().createCanvas(1, 1);
    const gl = canvas.getContext('webgl') as WebGLRenderingContext | null;
    if (!gl) return 'canvas';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return SOFTWARE_GL.test(name) ? 'canvas' : 'webgl';
  } catch {
    return defaultRenderer;
  }
}
