import type { RendererChoice } from '../../../scenes/roulette';
import { isSceneId, type SceneId } from './registry';

/**
 * The switcher's URL parameters, so benchmarks, screenshots and tests drive it without clicks:
 *   scene=roulette|chance-wheel|bonus-wheel|battle-reel|win-reveal   which scene (default roulette)
 *   reels=1..3                                            roulette reels (default 1)
 *   track=200|2000                                        roulette track length (targetTrackLength; 2 to 5000)
 *   renderer=auto|webgl|webgpu|canvas                     Pixi renderer (default auto: WebGL unless it is software)
 *   autoplay=1                                            play as soon as the scene is ready
 *   loop=1                                                replay as soon as a play settles (continuous motion)
 */
export interface DebugParams {
  scene: SceneId;
  reels: 1 | 2 | 3;
  track: number | null;
  renderer: RendererChoice | 'auto';
  autoplay: boolean;
  loop: boolean;
}

export const RENDERERS: readonly (RendererChoice | 'auto')[] = ['auto', 'webgl', 'webgpu', 'canvas'];
export const TRACK_LIMITS = { min: 2, max: 5_000 } as const;

const flag = (value: string | null) => value === '1' || value === 'true';

export function parseDebugParams(search: string): DebugParams {
  const params = new URLSearchParams(search);
  const scene = params.get('scene');
  const reels = Number(params.get('reels'));
  const track = Number(params.get('track'));
  const renderer = params.get('renderer') as DebugParams['renderer'] | null;
  return {
    scene: isSceneId(scene) ? scene : 'roulette',
    reels: reels === 2 || reels === 3 ? reels : 1,
    track:
      params.has('track') && Number.isInteger(track) && track >= TRACK_LIMITS.min && track <= TRACK_LIMITS.max
        ? track
        : null,
    renderer: renderer && RENDERERS.includes(renderer) ? renderer : 'auto',
    autoplay: flag(params.get('autoplay')),
    loop: flag(params.get('loop')),
  };
}

/** The query string for these parameters (defaults left out). */
export function formatDebugParams(params: DebugParams): string {
  const out = new URLSearchParams();
  out.set('scene', params.scene);
  if (params.scene === 'roulette' && params.reels !== 1) out.set('reels', String(params.reels));
  if (params.scene === 'roulette' && params.track !== null) out.set('track', String(params.track));
  if (params.renderer !== 'auto') out.set('renderer', params.renderer);
  if (params.autoplay) out.set('autoplay', '1');
  if (params.loop) out.set('loop', '1');
  return `?${out.toString()}`;
}
