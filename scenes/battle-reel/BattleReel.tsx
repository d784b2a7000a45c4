import { SceneApplication, useCanvasSize, type SceneCanvasProps } from '../shared/application.tsx';
import { BattleReelView, type BattleReelViewProps } from './BattleReelView.tsx';

export interface BattleReelProps extends BattleReelViewProps, SceneCanvasProps {}

function Reel(props: BattleReelProps) {
  useCanvasSize(props.width, props.height);
  return <BattleReelView {...props} />;
}

/**
 * The battle screen's case reel: a Pixi canvas of width × height. The ticker runs only while the reel
 * moves. Load it lazily (index.ts exports it through React.lazy).
 */
export function BattleReel(props: BattleReelProps) {
  return (
    <SceneApplication {...props}>
      <Reel {...props} />
    </SceneApplication>
  );
}
