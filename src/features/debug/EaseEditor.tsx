import { useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { parseEase } from '../../../scenes/debug';
import { bezierFor, formatBezier, parseBezier, type Bezier } from './bezier';
import { EASE_NAMES } from './fields';

interface EaseEditorProps {
  value: string;
  defaultValue: string;
  onChange: (ease: string) => void;
  /** A dot the switcher moves along the curve while the scene plays (set from its animation frames). */
  markerRef?: Ref<SVGCircleElement>;
}

// Graph geometry (SVG user units): progress 0..1 across, eased value -0.2..1.2 up.
const UNIT = 180;
const LEFT = 20;
const TOP = 14;
const Y_MAX = 1.2;
const Y_MIN = -0.2;
const WIDTH = LEFT * 2 + UNIT;
const HEIGHT = TOP * 2 + (Y_MAX - Y_MIN) * UNIT;
export const graphX = (p: number) => LEFT + p * UNIT;
export const graphY = (v: number) => TOP + (Y_MAX - v) * UNIT;

const CUSTOM = 'custom';

/**
 * The ease of a scene: a list of gsap eases, the ease as text, and its curve as a graph with the two
 * cubic-bezier control points to drag (pointer or arrow keys). Dragging a point of a named gsap ease turns
 * it into the cubic-bezier() closest to it. Every change goes straight to the config.
 */
export function EaseEditor({ value, defaultValue, onChange, markerRef }: EaseEditorProps) {
  const { t } = useTranslation();
  const named = (EASE_NAMES as readonly string[]).includes(value);
  const bezier = parseBezier(value);
  const handles = bezierFor(value);

  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  const shown = editing ? draft : value;

  const curve = useMemo(() => {
    const ease = parseEase(value);
    const points: string[] = [];
    for (let i = 0; i <= 96; i++) {
      const p = i / 96;
      const v = Math.min(Math.max(ease(p), Y_MIN), Y_MAX);
      points.push(`${graphX(p).toFixed(2)},${graphY(v).toFixed(2)}`);
    }
    return points.join(' ');
  }, [value]);

  const svg = useRef<SVGSVGElement>(null);
  const dragging = useRef<{ handle: 0 | 1; pointer: number } | null>(null);

  const move = (handle: 0 | 1, x: number, y: number) => {
    const next: Bezier = [...handles];
    next[handle * 2] = Math.min(Math.max(x, 0), 1);
    next[handle * 2 + 1] = Math.min(Math.max(y, Y_MIN), Y_MAX);
    onChange(formatBezier(next));
  };

  const toGraph = (event: PointerEvent) => {
    const rect = svg.current!.getBoundingClientRect();
    const sx = ((event.clientX - rect.left) / rect.width) * WIDTH;
    const sy = ((event.clientY - rect.top) / rect.height) * HEIGHT;
    return { x: (sx - LEFT) / UNIT, y: Y_MAX - (sy - TOP) / UNIT };
  };

  const onPointerDown = (handle: 0 | 1) => (event: PointerEvent<SVGCircleElement>) => {
    event.preventDefault();
    (event.target as Element).setPointerCapture(event.pointerId);
    dragging.current = { handle, pointer: event.pointerId };
  };
  const onPointerMove = (event: PointerEvent<SVGCircleElement>) => {
    const drag = dragging.current;
    if (!drag || drag.pointer !== event.pointerId) return;
    const { x, y } = toGraph(event);
    move(drag.handle, x, y);
  };
  const onPointerUp = (event: PointerEvent<SVGCircleElement>) => {
    if (dragging.current?.pointer === event.pointerId) dragging.current = null;
  };
  const onKeyDown = (handle: 0 | 1) => (event: KeyboardEvent<SVGCircleElement>) => {
    const step = event.shiftKey ? 0.1 : 0.01;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[
      event.key
    ];
    if (!delta) return;
    event.preventDefault();
    move(handle, handles[handle * 2]! + delta[0]!, handles[handle * 2 + 1]! + delta[1]!);
  };

  const commit = () => {
    setEditing(false);
    const next = draft.trim();
    if (next && next !== value) onChange(next);
  };

  const [x1, y1, x2, y2] = handles;
  return (
    <div className="debug-ease" data-testid="debug-ease">
      <div className="debug-ease__inputs">
        <select
          className="debug-input"
          value={named ? value : CUSTOM}
          aria-label={t('debug.ease')}
          data-testid="debug-ease-select"
          onChange={(event) =>
            onChange(event.target.value === CUSTOM ? formatBezier(bezierFor(value)) : event.target.value)
          }
        >
          {EASE_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          <option value={CUSTOM}>{t('debug.easeCustom')}</option>
        </select>
        <input
          className="debug-input debug-ease__text"
          value={shown}
          spellCheck={false}
          aria-label={t('debug.ease')}
          data-testid="debug-ease-text"
          onFocus={() => {
            setDraft(value);
            setEditing(true);
          }}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
            if (event.key === 'Escape') {
              setDraft(value);
              setEditing(false);
            }
          }}
        />
        {value !== defaultValue && (
          <button
            type="button"
            className="debug-reset"
            onClick={() => onChange(defaultValue)}
            title={t('debug.resetField', { field: 'ease' })}
            aria-label={t('debug.resetField', { field: 'ease' })}
          >
            ↺
          </button>
        )}
      </div>
      <svg
        ref={svg}
        className="debug-ease__graph"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={t('debug.easeGraph')}
        data-testid="debug-ease-graph"
        data-bezier={bezier ? 'custom' : 'named'}
      >
        <rect x={graphX(0)} y={graphY(1)} width={UNIT} height={UNIT} className="debug-ease__box" />
        <line x1={graphX(0)} y1={graphY(0.5)} x2={graphX(1)} y2={graphY(0.5)} className="debug-ease__grid" />
        <line x1={graphX(0.5)} y1={graphY(0)} x2={graphX(0.5)} y2={graphY(1)} className="debug-ease__grid" />
        <line x1={graphX(0)} y1={graphY(0)} x2={graphX(1)} y2={graphY(1)} className="debug-ease__linear" />
        <polyline points={curve} className="debug-ease__curve" />
        <line x1={graphX(0)} y1={graphY(0)} x2={graphX(x1)} y2={graphY(y1)} className="debug-ease__arm" />
        <line x1={graphX(1)} y1={graphY(1)} x2={graphX(x2)} y2={graphY(y2)} className="debug-ease__arm" />
        <circle ref={markerRef} r={4.5} cx={graphX(0)} cy={graphY(0)} className="debug-ease__marker" />
        {([0, 1] as const).map((handle) => (
          <circle
            key={handle}
            cx={graphX(handles[handle * 2]!)}
            cy={graphY(handles[handle * 2 + 1]!)}
            r={9}
            tabIndex={0}
            role="button"
            className="debug-ease__handle"
            data-named={!bezier || undefined}
            data-testid={`debug-ease-handle-${handle + 1}`}
            aria-label={`${t('debug.controlPoint', { n: handle + 1 })}: ${handles[handle * 2]}, ${handles[handle * 2 + 1]}`}
            onPointerDown={onPointerDown(handle)}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onKeyDown={onKeyDown(handle)}
          />
        ))}
      </svg>
    </div>
  );
}
