import { SceneApplication, useCanvasSize, type SceneCanvasProps } from '../shared/application.tsx';
import { ChanceWheelView, type ChanceWheelViewProps } from './ChanceWheelView.tsx';

export interface ChanceWheelProps extends ChanceWheelViewProps, SceneCanvasProps {}

function Wheel(props: ChanceWheelProps) {
  useCanvasSize(props.size, props.size);
  return <ChanceWheelView {...props} />;
}

/**
 * The upgrade game's chance wheel: a square Pixi canvas of size × size. The ticker runs only while the wheel
 * turns. Load it lazily (index.ts exports it through React.lazy).
 */
export function ChanceWheel(props: ChanceWheelProps) {
  return (
    <SceneApplication {...props} width={props.size} height={props.size}>
      <Wheel {...props} />
    </SceneApplication>
  );
}
