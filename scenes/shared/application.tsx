import { Application, useApplication } from '@pixi/react';
import { useEffect, type ReactNode } from 'react';
import { rendererOptions, type RendererChoice } from './renderer.ts';
import { useFrameDemand } from './ticker.ts';

/** Canvas options every scene component takes; read once, at start, except the size. */
export interface SceneCanvasProps {
  /** Renderer to ask Pixi for; read once, at start. Default 'webgl'. */
  renderer?: RendererChoice;
  /** Device pixel ratio to render at; read once, at start. Default 1. */
  resolution?: number;
  /** Canvas background colour; default transparent. */
  background?: number;
  /** CSS class of the canvas element. */
  className?: string;
}

export interface SceneApplicationProps extends SceneCanvasProps {
  /** Canvas width in CSS px. */
  width: number;
  /** Canvas height in CSS px. */
  height: number;
  children?: ReactNode;
}

/**
 * Resizes the enclosing application's renderer to width × height whenever they change, and draws one frame
 * (the ticker may be resting).
 */
export function useCanvasSize(width: number, height: number): void {
  const { app } = useApplication();
  const demand = useFrameDemand();
  useEffect(() => {
    app.renderer.resize(width, height);
    demand.invalidate();
  }, [app, demand, width, height]);
}

/**
 * The @pixi/react Application every scene renders into: frames on demand (autoStart off, own ticker; see
 * ticker.ts), transparent unless a background is given.
 */
export function SceneApplication(props: SceneApplicationProps) {
  const { width, height, renderer, resolution = 1, background, className, children } = props;
  return (
    <Application
      width={width}
      height={height}
      resolution={resolution}
      autoDensity
      antialias
      autoStart={false}
      sharedTicker={false}
      backgroundAlpha={background === undefined ? 0 : 1}
      background={background ?? 0x000000}
      className={className}
      {...rendererOptions(renderer)}
    >
      {children}
    </Application>
  );
}
