import { describe, expect, it } from 'vitest';
import type { Battle } from '../../contract/battles.ts';
import { nextSeatReel, seatReel } from '../../src/features/battle/model.ts';

// What each seat's reel shows of a battle, computed from the server's answer alone (so the room can start
// the reels before React renders it), and kept the same object while it shows the same (so a refetch
// neither prepares the reel again nor replays its round).

const item = (id: string) => ({
  id,
  name: id,
  price: '0.5',
  imageUrl: `/assets/items/${id}.svg`,
  imageBase64: null,
  rarity: 'common' as const,
});
const box = (id: string, items: string[]) => ({
  id,
  name: id,
  imageUrl: `/assets/cases/${id}.svg`,
  price: '1',
  items: items.map(item),
});
const roll = (round: number, seat: number, itemId: string) => ({
  round,
  seat,
  item: item(itemId),
  roll: 0,
  totalWeight: 1,
  awardedSeat: null,
});

function battle(revealedRounds: number, rolls: Battle['rolls'], now = '2026-01-01T00:00:00.000Z'): Battle {
  return {
    id: 'b1',
    format: '1v1',
    mode: 'normal',
    status: revealedRounds > 0 ? 'running' : 'open',
    cost: '2',
    cases: [box('starter', ['a', 'b', 'c']), box('flowers', ['d', 'e'])],
    seats: [0, 1].map((seat) => ({
      seat,
      team: seat,
      player: { name: `p${seat}`, avatar: null },
      isBot: seat === 1,
      isYou: seat === 0,
      clientSeed: null,
      total: '0',
    })),
    creatorSeat: 0,
    createdAt: now,
    expiresAt: now,
    startedAt: revealedRounds > 0 ? now : null,
    roundMs: 4000,
    now,
    revealedRounds,
    rolls,
    winnerTeam: null,
    tieRoll: null,
    serverSeedHash: 'h',
    publicSeed: null,
    serverSeed: null,
  };
}

describe('a seat reel', () => {
  it('rests on the first case, baking the later ones, before any round is revealed', () => {
    const reel = seatReel(battle(0, []), 1, false);
    expect(reel.play).toBeNull();
    expect(reel.round).toBe(0);
    expect(reel.plan.winnerIndex).toBeNull();
    expect(reel.plan.images.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(reel.plan.upcoming?.map((c) => c.map((i) => i.id))).toEqual([['d', 'e']]);
  });

  it("lands each seat on the server's item of the revealed round, and plays once per round", () => {
    const first = battle(1, [roll(1, 0, 'c'), roll(1, 1, 'a')]);
    expect(seatReel(first, 0, false)).toMatchObject({ round: 1, play: 'b1:1', plan: { winnerIndex: 2 } });
    expect(seatReel(first, 1, false)).toMatchObject({ round: 1, play: 'b1:1', plan: { winnerIndex: 0 } });
    const second = battle(2, [...first.rolls, roll(2, 0, 'e'), roll(2, 1, 'd')]);
    const reel = seatReel(second, 0, true);
    expect(reel).toMatchObject({ round: 2, play: 'b1:2', plan: { winnerIndex: 1, reducedMotion: true } });
    expect(reel.plan.images.map((i) => i.id)).toEqual(['d', 'e']);
    expect(reel.plan.upcoming).toEqual([]);
  });

  it('stays the same object for an answer that shows the same, and changes with a round or quick mode', () => {
    const rolls = [roll(1, 0, 'c'), roll(1, 1, 'a')];
    const shown = seatReel(battle(1, rolls), 0, false);
    // a refetch: a new object from the server with a later clock, same rounds
    const again = nextSeatReel(shown, seatReel(battle(1, rolls, '2026-01-01T00:00:01.000Z'), 0, false));
    expect(again).toBe(shown);
    const quick = nextSeatReel(shown, seatReel(battle(1, rolls), 0, true));
    expect(quick).not.toBe(shown);
    expect(quick.play).toBe(shown.play);
    const next = nextSeatReel(shown, seatReel(battle(2, [...rolls, roll(2, 0, 'd')]), 0, false));
    expect(next.play).toBe('b1:2');
    expect(nextSeatReel(null, shown)).toBe(shown);
  });
});
