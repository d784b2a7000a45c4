import { SceneApplication, useCanvasSize, type SceneCanvasProps } from '../shared/application.tsx';
import { BonusWheelView, type BonusWheelViewProps } from './BonusWheelView.tsx';

export interface BonusWheelProps extends BonusWheelViewProps, SceneCanvasProps {}

function Wheel(props: BonusWheelProps) {
  useCanvasSize(props.size, props.size);
  return <BonusWheelView {...props} />;
}

/**
 * The bonus wheel: a square Pixi canvas of size × size with 12 prize segments. The ticker runs only while
 * the wheel turns. Load it lazily (index.ts exports it through React.lazy).
 */
export function BonusWheel(props: BonusWheelProps) {
  return (
    <SceneApplication {...props} width={props.size} height={props.size}>
      <Wheel {...props} />
    </SceneApplication>
  );
}
