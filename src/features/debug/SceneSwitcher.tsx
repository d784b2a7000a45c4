import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pickWinner } from '../../../scenes/battle-reel';
import type { RevealTier } from '../../../scenes/win-reveal';
import { pickSpin, type BonusSegment, type BonusWheelConfig } from '../../../scenes/bonus-wheel';
import { parseEase } from '../../../scenes/debug';
import type { SceneEvent } from '../../../scenes/runtime';
import type { SceneSurface } from '../../lib/scene/runtime';
import { useElementWidth } from '../../lib/scene-hooks';
import { casesAtom } from '../../state/queries';
import { BATTLE_CASES } from '../battle/cases';
import { WHEEL_PRIZES } from '../bonus/prizes';
import type { ConfigObject, ConfigValue } from './config-io';
import { ConfigEditor } from './ConfigEditor';
import { ConfigTransfer } from './ConfigTransfer';
import { EaseEditor, graphX, graphY } from './EaseEditor';
import { fieldControls, fieldDocs } from './fields';
import { FrameGraph, type FrameGraphHandle } from './FrameGraph';
import { KEPT_FRAMES, pushBounded, type SceneDebugHandle } from './frames';
import { formatDebugParams, parseDebugParams, RENDERERS, TRACK_LIMITS, type DebugParams } from './params';
import { SCENES, type SceneId } from './registry';
import { itemsOfCatalogue, STATIC_ITEMS } from './sample-data';
import { ScenePreview, type Play } from './ScenePreview';

/** The list of scenes: the roulette with 1 to 3 reels, then the other scenes. */
const ENTRIES = [
  { key: 'roulette1', scene: 'roulette', reels: 1 },
  { key: 'roulette2', scene: 'roulette', reels: 2 },
  { key: 'roulette3', scene: 'roulette', reels: 3 },
  { key: 'chanceWheel', scene: 'chance-wheel', reels: 1 },
  { key: 'bonusWheel', scene: 'bonus-wheel', reels: 1 },
  { key: 'battleReel', scene: 'battle-reel', reels: 1 },
  { key: 'winReveal', scene: 'win-reveal', reels: 1 },
] as const satisfies readonly { key: string; scene: SceneId; reels: 1 | 2 | 3 }[];

const SPEEDS = [0.25, 0.5, 1] as const;
/** Quiet time after the last edit before "replay on change" replays, ms. */
const REPLAY_DEBOUNCE_MS = 350;

function initialConfigs(params: DebugParams): Record<SceneId, ConfigObject> {
  const configs = Object.fromEntries(
    Object.values(SCENES).map((scene) => [scene.id, structuredClone(scene.defaults)]),
  ) as Record<SceneId, ConfigObject>;
  if (params.track !== null) configs.roulette = { ...configs.roulette, targetTrackLength: params.track };
  return configs;
}

/** The page's debug handle (outside React: the runtime's events and the effects below update it). */
const handle: SceneDebugHandle = {
  settledCount: 0,
  frames: [],
  scene: 'roulette',
  config: {},
  playing: false,
  sample: () => SCENES[handle.scene].sample(handle.config),
};

const seconds = (ms: number) => `${(Math.max(ms, 0) / 1000).toFixed(2)} s`;

/**
 * The debug scene switcher: every scene with sample data, live config controls, replay, slow motion,
 * pause and scrub (through a DebugClock the scenes read their time from), a frame-time graph, and config
 * export and import. The URL selects the scene, reels, track, renderer, autoplay and loop (params.ts).
 */
export function SceneSwitcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useState<DebugParams>(() => parseDebugParams(window.location.search));
  const [configs, setConfigs] = useState(() => initialConfigs(params));
  const [play, setPlay] = useState<Play | null>(null);
  const [playing, setPlaying] = useState(false);
  const [settled, setSettled] = useState(0);
  const [replayOnChange, setReplayOnChange] = useState(true);
  const [stageRef, width] = useElementWidth<HTMLDivElement>();

  const scene = SCENES[params.scene];
  const config = configs[params.scene];
  // the scene's clock lives in the runtime; these mirror what was asked of it (changed by clicks only)
  const [paused, setPaused] = useState(false);
  const [rate, setRate] = useState(1);
  const surface = useRef<SceneSurface | null>(null);
  const clockState = useRef({ paused, rate });
  useLayoutEffect(() => {
    clockState.current = { paused, rate };
  }, [paused, rate]);
  const attach = useCallback((opened: SceneSurface | null) => {
    surface.current = opened;
    opened?.watch(true);
    if (opened) opened.clock(clockState.current);
  }, []);
  const setClock = useCallback((change: { paused?: boolean; rate?: number; seek?: number }) => {
    if (change.paused !== undefined) setPaused(change.paused);
    if (change.rate !== undefined) setRate(change.rate);
    surface.current?.clock(change);
  }, []);
  // time since the spin started, from the runtime's progress events
  const elapsed = useRef(0);

  const cases = useAtomValue(casesAtom);
  const items = useMemo(() => itemsOfCatalogue(cases.data) ?? STATIC_ITEMS, [cases.data]);
  const segments = useMemo<BonusSegment[]>(
    () =>
      WHEEL_PRIZES.map((prize) => ({
        id: prize.id,
        label:
          prize.ton !== undefined
            ? t('bonus.tonPrize', { amount: String(prize.ton) })
            : t(`bonus.items.${prize.item!}`),
        imageUrl: prize.imageUrl,
      })),
    [t],
  );

  // The URL follows the controls, so a screenshot or a benchmark can be reproduced from it.
  useEffect(() => {
    const search = formatDebugParams(params);
    if (search !== window.location.search) void navigate({ search }, { replace: true });
  }, [params, navigate]);

  // What tests and benchmarks read: window.__sceneDebug.
  useEffect(() => {
    handle.settledCount = 0;
    handle.frames.length = 0;
    window.__sceneDebug = handle;
    return () => {
      if (window.__sceneDebug === handle) delete window.__sceneDebug;
    };
  }, []);
  useLayoutEffect(() => {
    handle.scene = params.scene;
    handle.config = config;
    handle.playing = playing;
  }, [params.scene, config, playing]);

  // The latest state for callbacks that outlive a render (loop replays, debounced replays).
  const latest = useRef({ configs, items, loop: params.loop });
  useLayoutEffect(() => {
    latest.current = { configs, items, loop: params.loop };
  }, [configs, items, params.loop]);
  const plays = useRef(0);

  const replay = useCallback(
    (sceneId: SceneId) => {
      const { configs: all, items: cards } = latest.current;
      const played = all[sceneId];
      const random = () => Math.floor(Math.random() * cards.length);
      plays.current += 1;
      setClock({ paused: false });
      setPlay({
        id: plays.current,
        scene: sceneId,
        items: cards,
        winners: [random(), random(), random()],
        rolled: Math.random(),
        spin: pickSpin(Math.random, played as unknown as Partial<BonusWheelConfig>),
        battleWinner: pickWinner(Math.random, BATTLE_CASES.length),
        // each replay shows the next tier, 4 first: every step of the reveal can be tuned in turn
        revealTier: ((4 + plays.current - 1) % 5) as RevealTier,
      });
      setPlaying(true);
    },
    [setClock],
  );

  const onSettled = useCallback(() => {
    handle.settledCount += 1;
    setSettled(handle.settledCount);
    setPlaying(false);
    if (latest.current.loop) setTimeout(() => replay(handle.scene), 0);
  }, [replay]);

  // autoplay (and loop) from the URL: play once the page is up
  useEffect(() => {
    if (!params.autoplay && !params.loop) return;
    const timer = setTimeout(() => replay(params.scene), 0);
    return () => clearTimeout(timer);
    // only when the page opens; later scene choices replay from selectScene
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // "Replay on change": an edit replays the scene once the edits pause.
  const seen = useRef(new Map<SceneId, ConfigObject>());
  useEffect(() => {
    const before = seen.current.get(params.scene);
    seen.current.set(params.scene, config);
    if (!before || before === config || !replayOnChange) return;
    const timer = setTimeout(() => replay(params.scene), REPLAY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [config, params.scene, replayOnChange, replay]);

  const selectScene = (entry: (typeof ENTRIES)[number]) => {
    setParams((current) => ({ ...current, scene: entry.scene, reels: entry.reels }));
    setPlay(null);
    setPlaying(false);
    if (params.autoplay || params.loop) setTimeout(() => replay(entry.scene), 0);
  };

  const setField = (key: string, value: ConfigValue) => {
    setConfigs((current) => ({ ...current, [params.scene]: { ...current[params.scene], [key]: value } }));
    if (params.scene === 'roulette' && key === 'targetTrackLength' && typeof value === 'number') {
      const track =
        Number.isInteger(value) && value >= TRACK_LIMITS.min && value <= TRACK_LIMITS.max ? value : null;
      setParams((current) => ({ ...current, track }));
    }
  };
  const replaceConfig = (next: ConfigObject) => {
    setConfigs((current) => ({ ...current, [params.scene]: next }));
    if (params.scene === 'roulette') {
      const track = next.targetTrackLength;
      setParams((current) => ({
        ...current,
        track: typeof track === 'number' && track !== scene.defaults.targetTrackLength ? track : null,
      }));
    }
  };

  // Frames, the scrubber and the dot on the ease curve follow the play from the runtime's progress
  // events (about 10 a second, batched in the runtime): no animation-frame loop and no React render here.
  const graph = useRef<FrameGraphHandle>(null);
  const scrub = useRef<HTMLInputElement>(null);
  const timeText = useRef<HTMLSpanElement>(null);
  const marker = useRef<SVGCircleElement>(null);
  const playLength = scene.playLength(config);
  const showTime = useCallback(() => {
    const length = play ? SCENES[play.scene].playLength(config) : 0;
    const shown = play ? Math.min(Math.max(elapsed.current, 0), length) : 0;
    if (scrub.current && document.activeElement !== scrub.current) scrub.current.value = String(shown);
    if (timeText.current) timeText.current.textContent = `${seconds(shown)} / ${seconds(length)}`;
    const duration = Number(config.durationMs ?? 0);
    if (marker.current && play && typeof config.ease === 'string') {
      const progress = duration > 0 ? Math.min(Math.max(elapsed.current / duration, 0), 1) : 1;
      const eased = parseEase(config.ease)(progress);
      marker.current.setAttribute('cx', String(graphX(progress)));
      marker.current.setAttribute('cy', String(graphY(Math.min(Math.max(eased, -0.2), 1.2))));
    }
  }, [play, config]);
  useEffect(() => showTime(), [showTime]);

  const onEvents = useCallback(
    (events: SceneEvent[]) => {
      for (const event of events) {
        if (event.type === 'started') {
          elapsed.current = 0;
        } else if (event.type === 'progress') {
          elapsed.current = event.elapsed;
          for (const frame of event.frameTimes) pushBounded(handle.frames, frame, KEPT_FRAMES);
          if (event.frameTimes.length > 0) graph.current?.draw(handle.frames);
          showTime();
        } else if (event.type === 'settled') {
          onSettled();
        } else if (event.type === 'error') {
          console.error('Debug scene failed', event.message);
        }
      }
    },
    [showTime, onSettled],
  );

  const controls = useMemo(() => fieldControls(scene.defaults, scene.rules), [scene]);
  const docs = useMemo(() => fieldDocs(scene.source), [scene]);
  const changed = Object.keys(scene.defaults).filter(
    (key) => JSON.stringify(config[key]) !== JSON.stringify(scene.defaults[key]),
  ).length;
  const activeEntry = ENTRIES.find((e) => e.scene === params.scene && e.reels === params.reels) ?? ENTRIES[0];

  return (
    <div className="debug" data-testid="debug-page">
      <header className="debug__bar">
        <h1 className="debug__title">{t('debug.title')}</h1>
        <Link to="/" className="debug__back">
          {t('debug.toApp')}
        </Link>
      </header>

      <nav className="debug__scenes" aria-label={t('debug.scenesLabel')}>
        {ENTRIES.map((entry) => (
          <button
            key={entry.key}
            type="button"
            className="debug-chip"
            aria-pressed={entry === activeEntry}
            onClick={() => selectScene(entry)}
            data-testid={`debug-scene-${entry.key}`}
          >
            {t(`debug.scenes.${entry.key}`)}
          </button>
        ))}
      </nav>

      <div className="debug__layout">
        <div ref={stageRef} className="debug__stage">
          <ScenePreview
            scene={params.scene}
            reels={params.reels}
            renderer={params.renderer}
            width={width}
            play={play}
            config={config}
            segments={segments}
            items={items}
            onSurface={attach}
            onEvents={onEvents}
          />
        </div>

        <div className="debug-card debug__transport">
          <div className="debug-row">
            <button
              type="button"
              className="debug-button debug-button--primary"
              onClick={() => replay(params.scene)}
              data-testid="debug-replay"
            >
              {t('debug.replay')}
            </button>
            <button
              type="button"
              className="debug-button"
              onClick={() => setClock({ paused: !paused })}
              aria-pressed={paused}
              data-testid="debug-pause"
            >
              {paused ? t('debug.resume') : t('debug.pause')}
            </button>
            <div className="debug-segmented" role="group" aria-label={t('debug.speed')}>
              {SPEEDS.map((speed) => (
                <button
                  key={speed}
                  type="button"
                  aria-pressed={rate === speed}
                  onClick={() => setClock({ rate: speed })}
                  data-testid={`debug-speed-${speed}`}
                >
                  {speed}×
                </button>
              ))}
            </div>
            <span className="debug__settled" data-testid="debug-settled" data-count={settled}>
              {t('debug.settled', { count: settled })}
            </span>
          </div>
          <label className="debug__scrub">
            <span className="debug__scrub-label">{t('debug.time')}</span>
            <input
              ref={scrub}
              type="range"
              className="debug-range"
              min={0}
              max={Math.max(playLength, 1)}
              step={1}
              defaultValue={0}
              disabled={!play}
              data-testid="debug-scrub"
              onChange={(event) => {
                elapsed.current = Number(event.target.value);
                setClock({ paused: true, seek: elapsed.current });
                showTime();
              }}
            />
            <span ref={timeText} className="debug__time" data-testid="debug-time" />
          </label>
          <div className="debug-row debug__options">
            <label className="debug-check">
              <input
                type="checkbox"
                checked={params.loop}
                onChange={(event) => {
                  const loop = event.target.checked;
                  setParams((current) => ({ ...current, loop }));
                  if (loop && !playing) replay(params.scene);
                }}
                data-testid="debug-loop"
              />
              {t('debug.loop')}
            </label>
            <label className="debug-check">
              <input
                type="checkbox"
                checked={replayOnChange}
                onChange={(event) => setReplayOnChange(event.target.checked)}
                data-testid="debug-replay-on-change"
              />
              {t('debug.replayOnChange')}
            </label>
            <label className="debug-check">
              {t('debug.renderer')}
              <select
                className="debug-input"
                value={params.renderer}
                onChange={(event) =>
                  setParams((current) => ({
                    ...current,
                    renderer: event.target.value as DebugParams['renderer'],
                  }))
                }
                data-testid="debug-renderer"
              >
                {RENDERERS.map((renderer) => (
                  <option key={renderer} value={renderer}>
                    {renderer}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>

        <div className="debug__frames">
          <FrameGraph ref={graph} />
        </div>

        <div className="debug__transfer">
          <ConfigTransfer scene={scene} config={config} onImport={replaceConfig} />
        </div>

        <aside className="debug__side">
          <section className="debug-card">
            <h2 className="debug-card__title">{t('debug.ease')}</h2>
            <EaseEditor
              value={String(config.ease)}
              defaultValue={String(scene.defaults.ease)}
              onChange={(ease) => setField('ease', ease)}
              markerRef={marker}
            />
          </section>
          <section className="debug-card">
            <div className="debug-card__head">
              <h2 className="debug-card__title">{t('debug.config')}</h2>
              {changed > 0 && <span className="debug-badge">{t('debug.changed', { count: changed })}</span>}
              <button
                type="button"
                className="debug-button debug-button--small"
                onClick={() => replaceConfig(structuredClone(scene.defaults))}
                disabled={changed === 0}
                data-testid="debug-reset"
              >
                {t('debug.reset')}
              </button>
            </div>
            <ConfigEditor
              controls={controls}
              config={config}
              defaults={scene.defaults}
              docs={docs}
              onChange={setField}
            />
          </section>
        </aside>
      </div>
    </div>
  );
}
