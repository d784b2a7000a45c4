import { useImperativeHandle, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { GRAPH_FRAMES, percentile } from './frames';

export interface FrameGraphHandle {
  /** Draws the last GRAPH_FRAMES frame times (ms) and their p50 / p99; called from an animation frame. */
  draw(frames: readonly number[]): void;
}

const WIDTH = GRAPH_FRAMES;
const HEIGHT = 84;
/** Frame time at the top of the graph, ms. */
const CEILING_MS = 50;
const BUDGETS = [1000 / 60, 1000 / 30];

/**
 * Frame times as bars, one per frame, with the 60 and 30 fps budgets as lines. Drawn straight onto a
 * canvas from the switcher's animation-frame loop: no React render per frame.
 */
export function FrameGraph({ ref }: { ref?: Ref<FrameGraphHandle> }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const p50 = useRef<HTMLElement>(null);
  const p99 = useRef<HTMLElement>(null);
  const count = useRef<HTMLElement>(null);
  const format = (ms: number) => t('debug.ms', { value: ms.toFixed(1) });

  useImperativeHandle(ref, () => ({
    draw(frames) {
      const shown = frames.slice(-GRAPH_FRAMES);
      const element = canvas.current;
      const context = element?.getContext('2d');
      if (element && context) {
        const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 2);
        if (element.width !== WIDTH * ratio) {
          element.width = WIDTH * ratio;
          element.height = HEIGHT * ratio;
        }
        context.setTransform(ratio, 0, 0, ratio, 0, 0);
        context.clearRect(0, 0, WIDTH, HEIGHT);
        const y = (ms: number) => HEIGHT - (Math.min(ms, CEILING_MS) / CEILING_MS) * HEIGHT;
        const offset = WIDTH - shown.length;
        shown.forEach((ms, i) => {
          context.fillStyle =
            ms <= BUDGETS[0]! + 1 ? '#4cc38a' : ms <= BUDGETS[1]! + 1 ? '#f5a524' : '#f0524d';
          const top = y(ms);
          context.fillRect(offset + i, top, 1, HEIGHT - top);
        });
        context.strokeStyle = 'rgba(255,255,255,0.35)';
        context.setLineDash([3, 3]);
        context.lineWidth = 1;
        for (const budget of BUDGETS) {
          context.beginPath();
          context.moveTo(0, Math.round(y(budget)) + 0.5);
          context.lineTo(WIDTH, Math.round(y(budget)) + 0.5);
          context.stroke();
        }
        context.setLineDash([]);
      }
      if (p50.current) p50.current.textContent = shown.length ? format(percentile(shown, 50)) : '–';
      if (p99.current) p99.current.textContent = shown.length ? format(percentile(shown, 99)) : '–';
      if (count.current) count.current.textContent = String(shown.length);
    },
  }));

  return (
    <figure className="debug-frames" data-testid="debug-frames">
      <figcaption className="debug-frames__head">
        <span className="debug-frames__title">{t('debug.frames')}</span>
        <span className="debug-frames__figure">
          p50{' '}
          <b ref={p50} data-testid="debug-p50">
            –
          </b>
        </span>
        <span className="debug-frames__figure">
          p99{' '}
          <b ref={p99} data-testid="debug-p99">
            –
          </b>
        </span>
        <span className="debug-frames__figure" title={t('debug.framesHint')}>
          n <b ref={count}>0</b>
        </span>
      </figcaption>
      <canvas
        ref={canvas}
        className="debug-frames__canvas"
        width={WIDTH}
        height={HEIGHT}
        aria-label={t('debug.framesHint')}
      />
    </figure>
  );
}
