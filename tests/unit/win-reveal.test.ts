import { describe, expect, it } from 'vitest';
import { revealMotion, revealPose, winRevealConfig } from '../../scenes/win-reveal';
import { badgeMultiplier, revealTier, winMultiplier } from '../../src/features/case/reveal.ts';

describe('how big a win looks', () => {
  it('multiplier: item price ÷ what was paid, exact from nanoTON; none for a free case', () => {
    expect(winMultiplier('12', '1')).toBe(12);
    expect(winMultiplier('0.1', '0.5')).toBe(0.2);
    expect(winMultiplier('80', '3')).toBe(26.666);
    expect(winMultiplier('1', '0')).toBeNull();
  });
  it('tier: the higher of the rarity and the value against the price', () => {
    expect(revealTier('common', '0.1', '0.5')).toBe(0); // a 0.1 TON win from a 0.5 TON case
    expect(revealTier('common', '0.5', '0.5')).toBe(1); // got the price back
    expect(revealTier('common', '1', '0.5')).toBe(2); // 2×
    expect(revealTier('common', '2.5', '0.5')).toBe(3); // 5×
    expect(revealTier('common', '80', '0.5')).toBe(4); // 160×
    expect(revealTier('legendary', '0.1', '5')).toBe(4); // a legendary is always the top tier
    expect(revealTier('rare', '0.1', '5')).toBe(2);
    expect(revealTier('epic', '1', '0')).toBe(3); // a free case: rarity alone
  });
  it('a badge from 2× up', () => {
    expect(badgeMultiplier('1.99', '1')).toBeNull();
    expect(badgeMultiplier('2', '1')).toBe(2);
    expect(badgeMultiplier('12', '1')).toBe(12);
    expect(badgeMultiplier('12', '0')).toBeNull();
  });
});

describe('the win reveal motion', () => {
  it('steps up with the tier: longer, more sparks, rays and a ring from their tiers', () => {
    const tiers = ([0, 1, 2, 3, 4] as const).map((tier) => revealMotion({ tier, seed: 'x' }));
    for (let i = 1; i < tiers.length; i++) {
      expect(tiers[i]!.durationMs).toBeGreaterThan(tiers[i - 1]!.durationMs);
      expect(tiers[i]!.sparks.length).toBeGreaterThan(tiers[i - 1]!.sparks.length);
    }
    expect(tiers[0]!.sparks).toHaveLength(0);
    const mid = (m: (typeof tiers)[number]) => revealPose(m, 200);
    expect(mid(tiers[1]!).raysAlpha).toBe(0);
    expect(mid(tiers[winRevealConfig.raysFromTier]!).raysAlpha).toBeGreaterThan(0);
    expect(mid(tiers[2]!).ringAlpha).toBe(0);
    expect(mid(tiers[winRevealConfig.ringFromTier]!).ringAlpha).toBeGreaterThan(0);
    expect(mid(tiers[4]!).glowRadius).toBeGreaterThan(mid(tiers[0]!).glowRadius);
  });
  it('is pure: the same seed and time give the same pose; another seed another burst', () => {
    const a = revealMotion({ tier: 4, seed: 'opening-1' });
    expect(revealPose(a, 500)).toEqual(revealPose(revealMotion({ tier: 4, seed: 'opening-1' }), 500));
    expect(revealPose(a, 500).sparks).not.toEqual(
      revealPose(revealMotion({ tier: 4, seed: 'opening-2' }), 500).sparks,
    );
  });
  it('ends with nothing shown', () => {
    const m = revealMotion({ tier: 4, seed: 'end' });
    const end = revealPose(m, m.durationMs);
    expect(end.done).toBe(true);
    expect(
      [end.glowAlpha, end.raysAlpha, end.ringAlpha, ...end.sparks.map((s) => s.alpha)].every((a) => a === 0),
    ).toBe(true);
    expect(revealPose(m, m.durationMs - 1).done).toBe(false);
  });
});
