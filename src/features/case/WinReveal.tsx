import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Rarity } from '../../../contract/cases.ts';
import type { RevealTier } from '../../../scenes/win-reveal';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { sceneResolution, useElementWidth } from '../../lib/scene-hooks';
import { formatMultiplier, RARITY_COLORS } from './reveal';
import './reveal.css';

interface WinRevealProps {
  tier: RevealTier;
  rarity: Rarity;
  /** the win's id: the same win replays the same burst */
  seed: string;
}

/**
 * The reveal behind a win (glow, rays, ring, sparks in the rarity's colour, stepping up with the tier),
 * drawn by the scene runtime like the reels: it plays once as it mounts and then draws nothing.
 */
export function WinReveal({ tier, rarity, seed }: WinRevealProps) {
  const [box, width] = useElementWidth<HTMLDivElement>();
  const plan = useMemo(() => ({ tier, color: RARITY_COLORS[rarity], seed }), [tier, rarity, seed]);
  const cue = useSceneCue(plan, seed);
  // a square as wide as the screen (at most 480 px): the burst is centred on the items
  const side = Math.min(width, 480);
  return (
    <div ref={box} className="win__reveal" aria-hidden="true" data-testid="win-reveal">
      {side > 0 && (
        <SceneView scene="win-reveal" cue={cue} width={side} height={side} dpr={sceneResolution()} />
      )}
    </div>
  );
}

/** A win's ×N badge (worth N times what was paid), as the locale writes the number. */
export function MultiplierBadge({ multiplier, testId }: { multiplier: number; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <span className="win-badge" data-testid={testId}>
      {formatMultiplier(multiplier, i18n.language)}
    </span>
  );
}
