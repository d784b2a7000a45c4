import { Application, useApplication } from '@pixi/react';
import { useEffect } from 'react';
import { rendererOptions, type RendererChoice } from '../shared/renderer.ts';
import { useFrameDemand } from '../shared/ticker.ts';
import { BonusWheelView, type BonusWheelViewProps } from './BonusWheelView.tsx';

export interface BonusWheelProps extends BonusWheelViewProps {
  /** Renderer to ask Pixi for; read once, at start. Default 'webgl'. */
  renderer?: RendererChoice;
  /** Device pixel ratio to render at; read once, at start. Default 1. */
  resolution?: number;
  /** Canvas background colour; default transparent. */
  background?: number;
  /** CSS class of the canvas element. */
  className?: string;
}

function Wheel(props: BonusWheelProps) {
  const { app } = useApplication();
  const demand = useFrameDemand();
  useEffect(() => {
    app.renderer.resize(props.size, props.size);
    demand.invalidate();
  }, [app, demand, props.size]);
  return <BonusWheelView {...props} />;
}

/**
 * The bonus wheel: a square Pixi canvas of size × size with 12 prize segments. The ticker runs only while
 * the wheel turns. Load it lazily (index.ts exports it through React.lazy).
 */
export function BonusWheel(props: BonusWheelProps) {
  const { size, renderer, resolution = 1, background, className } = props;
  return (
    <Application
      width={size}
      height={size}
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
      <Wheel {...props} />
    </Application>
  );
}
