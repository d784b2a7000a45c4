import { Application, useApplication } from '@pixi/react';
import { useEffect } from 'react';
import { rendererOptions, type RendererChoice } from '../shared/renderer.ts';
import { useFrameDemand } from '../shared/ticker.ts';
import { BattleReelView, type BattleReelViewProps } from './BattleReelView.tsx';

export interface BattleReelProps extends BattleReelViewProps {
  /** Renderer to ask Pixi for; read once, at start. Default 'webgl'. */
  renderer?: RendererChoice;
  /** Device pixel ratio to render at; read once, at start. Default 1. */
  resolution?: number;
  /** Canvas background colour; default transparent. */
  background?: number;
  /** CSS class of the canvas element. */
  className?: string;
}

function Reel(props: BattleReelProps) {
  const { app } = useApplication();
  const demand = useFrameDemand();
  useEffect(() => {
    app.renderer.resize(props.width, props.height);
    demand.invalidate();
  }, [app, demand, props.width, props.height]);
  return <BattleReelView {...props} />;
}

/**
 * The battle screen's case reel: a Pixi canvas of width × height. The ticker runs only while the reel
 * moves. Load it lazily (index.ts exports it through React.lazy).
 */
export function BattleReel(props: BattleReelProps) {
  const { width, height, renderer, resolution = 1, background, className } = props;
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
      <Reel {...props} />
    </Application>
  );
}
