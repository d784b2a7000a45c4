import { atom, useStore, type Atom, type PrimitiveAtom } from 'jotai';
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { BattleReelConfig, BattleReelScenePlan } from '../../../scenes/battle-reel';
import type { BonusWheelConfig, BonusWheelScenePlan } from '../../../scenes/bonus-wheel';
import type { ChanceWheelConfig, ChanceWheelScenePlan } from '../../../scenes/chance-wheel';
import type { RendererChoice, RouletteConfig, RouletteScenePlan } from '../../../scenes/roulette';
import type { SceneEvent, SceneId } from '../../../scenes/runtime';
import type { WinRevealConfig, WinRevealScenePlan } from '../../../scenes/win-reveal';
import { openSurface, type SceneSurface } from './runtime';

interface ScenePlans {
  roulette: RouletteScenePlan;
  'chance-wheel': ChanceWheelScenePlan;
  'bonus-wheel': BonusWheelScenePlan;
  'battle-reel': BattleReelScenePlan;
  'win-reveal': WinRevealScenePlan;
}

interface SceneConfigs {
  roulette: RouletteConfig;
  'chance-wheel': ChanceWheelConfig;
  'bonus-wheel': BonusWheelConfig;
  'battle-reel': BattleReelConfig;
  'win-reveal': WinRevealConfig;
}

/** A scene's phase edge: what to show, and which play of it runs (null: none). */
export interface SceneCue<Plan> {
  /** What to show; a new object prepares it (bakes, lays out, shows the rest pose). */
  plan: Plan;
  /** A new non-null value plays the prepared plan (after it is prepared). */
  play: number | string | null;
}

/**
 * A cue atom that follows a plan and play computed in render (screens whose phase edges are React state).
 * A screen whose phase edge comes from outside React (a request's answer) sets its own atom instead, so the
 * scene starts without waiting for a render.
 */
export function useSceneCue<Plan>(plan: Plan, play: number | string | null): Atom<SceneCue<Plan>> {
  const store = useStore();
  const [cue] = useState(() => atom<SceneCue<Plan>>({ plan, play }));
  useLayoutEffect(() => {
    const current = store.get(cue);
    if (current.plan !== plan || current.play !== play) store.set(cue, { plan, play });
  }, [store, cue, plan, play]);
  return cue;
}

/**
 * An atom that follows a value computed in render (set after each render that changed it), for a cue atom
 * derived from both render values and values set outside React: the derived cue keeps its identity when the
 * render value changes, so only its plan changes (prepared again), not its play.
 */
export function useFollowingAtom<T>(value: T): PrimitiveAtom<T> {
  const store = useStore();
  const [follower] = useState(() => atom(value));
  useLayoutEffect(() => {
    if (!Object.is(store.get(follower), value)) store.set(follower, value);
  }, [store, follower, value]);
  return follower;
}

export interface SceneViewProps<S extends SceneId> {
  scene: S;
  /**
   * The scene's phase edges, as an atom: each new plan is prepared and each new non-null play played the
   * moment the atom changes (a subscription, not a render), in that order.
   */
  cue: Atom<SceneCue<ScenePlans[S]>>;
  /** Canvas size, CSS px. */
  width: number;
  height: number;
  /** Device pixel ratio to render at. */
  dpr?: number;
  /** Renderer to ask for; read when the canvas is made. */
  renderer?: RendererChoice;
  /** Live tuning (the debug switcher): reaches the running scene without a restart. */
  config?: Partial<SceneConfigs[S]>;
  /** The scene's batched events (ticks, started, settled, error). */
  onEvents?: (events: SceneEvent[]) => void;
  className?: string;
  /** Told the surface when it opens (and null when it closes): the debug switcher's clock and progress. */
  onSurface?: (surface: SceneSurface | null) => void;
}

/**
 * The one React component that shows a scene: it makes the canvas, hands it to the scene runtime (in a
 * worker where it can be), and forwards the plan, play, size and config when they change: at phase edges,
 * never per frame. Everything that moves is drawn by the runtime; React does not render during a spin.
 */
function SceneHost<S extends SceneId>(props: SceneViewProps<S>) {
  const { scene, cue, width, height, dpr = 1, renderer, config, className } = props;
  const store = useStore();
  const box = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const surface = useRef<SceneSurface>(null);
  const onEvents = useRef(props.onEvents);
  const onSurface = useRef(props.onSurface);
  const size = useRef({ width, height, dpr });
  useLayoutEffect(() => {
    onEvents.current = props.onEvents;
    onSurface.current = props.onSurface;
    size.current = { width, height, dpr };
  });

  // one canvas per scene and renderer: a canvas can be handed to a worker only once, so it is made here
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const canvas = document.createElement('canvas');
    canvas.className = className ?? '';
    canvas.style.display = 'block';
    // above the strips a composited play shows under it (main-thread path)
    canvas.style.position = 'relative';
    canvas.style.width = `${size.current.width}px`;
    canvas.style.height = `${size.current.height}px`;
    canvas.width = Math.max(Math.round(size.current.width * size.current.dpr), 1);
    canvas.height = Math.max(Math.round(size.current.height * size.current.dpr), 1);
    element.append(canvas);
    canvasRef.current = canvas;
    const opened = openSurface(scene, canvas, size.current, renderer, (events) => onEvents.current?.(events));
    surface.current = opened;
    onSurface.current?.(opened);
    return () => {
      opened.close();
      canvas.remove();
      surface.current = null;
      onSurface.current?.(null);
    };
    // className is read once; size goes through the resize effect
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scene, renderer]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas) {
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    surface.current?.resize({ width, height, dpr });
  }, [scene, renderer, width, height, dpr]);

  useEffect(() => {
    if (config) surface.current?.configure(config as Record<string, unknown>);
  }, [scene, renderer, config]);

  // the cue straight to the runtime: the plan prepared, then a new play played, as soon as the atom changes
  useEffect(() => {
    let shown: SceneCue<unknown> | null = null;
    const apply = () => {
      const next = store.get(cue);
      const target = surface.current;
      if (!target) return;
      if (next.plan !== shown?.plan) target.prepare(next.plan);
      if (next.play !== null && next.play !== shown?.play) target.play();
      shown = next;
    };
    apply();
    return store.sub(cue, apply);
  }, [store, cue, scene, renderer]);

  return <div ref={box} className="scene-view" style={{ position: 'relative' }} />;
}

/**
 * Rendered again only when its props change: a screen's render at a phase edge (an answer, a landing) does
 * not reach the scene's host, whose cue arrives by subscription anyway.
 */
export const SceneView = memo(SceneHost) as typeof SceneHost;
