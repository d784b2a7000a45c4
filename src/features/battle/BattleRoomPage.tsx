import { hashKey } from '@tanstack/react-query';
import { atom, useAtomValue, useStore, type Atom, type PrimitiveAtom } from 'jotai';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { Link, useParams } from 'react-router';
import { battleReelHeight } from '../../../scenes/battle-reel';
import type { Battle, BattleRoll } from '../../../contract/battles.ts';
import { sumTon } from '../../../contract/money.ts';
import { apiErrorText } from '../../lib/api-error';
import { rollInt, sha256Hex } from '../../lib/fair';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useMoneyRun } from '../../lib/money-action';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { SceneView, useFollowingAtom } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { ArtImage } from '../../lib/ui/ArtImage';
import { usePress } from '../../lib/ui/press';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { markBattleSeen } from '../../state/unseen';
import { battleAtom, battleEventsAtom, cancelBattle, fillWithBots, joinBattle } from './api';
import { BattleOutcome } from './BattleOutcome';
import { JoinDialog } from './JoinDialog';
import { mySeat, nextSeatReel, seatReel, winningSeats, type SeatReel } from './model';
import { battleShareLink } from '../../lib/start-param';
import { shareLink } from '../../lib/telegram';
import { configAtom, queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';
import './battle.css';

const REEL_PADDING = 8;

/**
 * One battle, for its players and for spectators (no sign-in needed): a column per seat with the player,
 * their total and a reel that lands on the server's item each round, all seats at once; the winner's side
 * is highlighted at the end. The state is the server's (GET /battles/:id, refetched on every socket event),
 * so a player who reconnects sees where the battle is. Its query (the battle's query atom, which the
 * battles socket keeps fresh) fetches and polls it. Quick mode skips the reel animation.
 *
 * The room and its reels follow the battle's query data directly (a subscription to the query cache), so a
 * round starts turning the moment its answer or refetch lands. The room's render of it is committed there
 * and then, before the reels' first frame: a slow phone draws the room's changes (the bots seated, the
 * status) in that frame, rather than committing and painting them in the frames right after the motion
 * started. It changes only the texts and seats that changed (the reels' hosts are not rendered again), and
 * the query's own later notice of the same data renders nothing.
 */
export function BattleRoomPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  useAtomValue(battleEventsAtom);
  // the query itself (which fetches and polls the battle) renders the room only when it fails or recovers
  const failed = useAtomValue(useMemo(() => atom((get) => get(battleAtom(id)).isError), [id]));
  const [quick, setQuick] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the seat a Join tap asks to pay for (confirmed first, like sell all)
  const [asking, setAsking] = useState<number | null>(null);
  // rounds whose reels have landed, by seat: drops, totals and the winner show only up to them
  const [landed, setLanded] = useState<Record<number, number>>({});
  // the room shows nothing of an action under way (the guard is at the tap): no render as one starts or ends
  const run = useMoneyRun('battle');
  const reels = useRoomReels(id, quick);
  const battle = useAtomValue(reels.latest);

  // one action per tap (guarded at the tap, its intent's key), its failure shown below
  const act = async (intent: string, work: (idempotencyKey: string) => Promise<unknown>) => {
    const done = run(intent, work);
    if (!done) return;
    setError(null);
    try {
      await done;
      hapticImpact('light');
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.action')));
    }
  };

  // the bots' request leaves at the tap's release, not its click (see usePress)
  const botsPress = usePress(() => void act(`battle:bots:${id}`, () => fillWithBots(id)));

  // stable, so the memoized seats are not rendered again for them
  const onLanded = useCallback(
    (seat: number, round: number) => setLanded((l) => (l[seat] === round ? l : { ...l, [seat]: round })),
    [],
  );
  const onJoin = useCallback((seat: number) => setAsking(seat), []);

  const noReel = battle !== undefined && !hasReel(battle);
  const shown = battle ? shownRounds(battle, landed, noReel) : 0;
  const over = battle !== undefined && battle.status === 'finished' && shown >= battle.cases.length;
  const seated = battle !== undefined && mySeat(battle) !== null;
  // the player's battle result is on screen: nothing left to show them later
  useEffect(() => {
    if (over && seated) markBattleSeen(id);
  }, [over, seated, id]);

  if (failed && !battle) {
    return (
      <section className="screen battle" data-testid="battle-room">
        <p className="battle__empty">{t('battle.errors.notFound')}</p>
        <Link to="/battle">{t('battle.back')}</Link>
      </section>
    );
  }
  if (!battle) return <section className="screen battle" data-testid="battle-room" aria-busy="true" />;

  const me = mySeat(battle);
  // the winner shows once the last round has landed, not before
  const winners = over ? winningSeats(battle) : new Set<number>();
  const rounds = battle.cases.length;
  const joining = asking === null ? null : battle.seats.find((s) => s.seat === asking && s.player === null);
  return (
    <section
      className="screen battle"
      data-testid="battle-room"
      data-status={battle.status}
      data-round={battle.revealedRounds}
      data-shown-round={shown}
    >
      <div className="battle__head">
        <Link to="/battle" className="battle__back" aria-label={t('battle.back')}>
          ‹
        </Link>
        <h1 className="screen__title">
          {battle.format} · {t(`battle.modes.${battle.mode}`)}
        </h1>
        <span className="battle__round" data-testid="battle-round">
          {t('battle.roundOf', { round: Math.max(1, battle.revealedRounds), total: rounds })}
        </span>
      </div>
      <p className="battle__status" data-testid="battle-status">
        {t(`battle.status.${battle.status}`)} · <TonIcon size={14} /> {formatTon(battle.cost)}
      </p>
      <ShareBattle battleId={battle.id} />

      <label className="battle__quick">
        <input type="checkbox" checked={quick} onChange={(e) => setQuick(e.target.checked)} />
        {t('battle.quick')}
      </label>

      <div className="battle__seats" data-seats={battle.seats.length}>
        {battle.seats.map((seat) => {
          // a round's drop and the running total show when its reels land (the scenes' settled), never before
          const drops = battle.rolls.filter((r) => r.seat === seat.seat && r.round <= shown);
          return (
            <SeatColumn
              key={seat.seat}
              seat={seat.seat}
              team={seat.team}
              name={seat.player ? (seat.isBot ? t('battle.bot') : seat.player.name) : t('battle.waiting')}
              avatar={seat.player?.avatar ?? null}
              isYou={seat.isYou}
              total={formatTon(
                shown >= battle.revealedRounds ? seat.total : sumTon(drops.map((d) => d.item.price)),
              )}
              drops={drops}
              won={winners.has(seat.seat)}
              landed={noReel ? battle.revealedRounds : (landed[seat.seat] ?? 0)}
              reel={noReel ? null : reels.cue(seat.seat)}
              onLanded={onLanded}
              canJoin={battle.status === 'open' && me === null && seat.player === null}
              onJoin={onJoin}
            />
          );
        })}
      </div>
      {over && me && <BattleOutcome battle={battle} me={me} won={winners.has(me.seat)} />}
      {joining && battle.status === 'open' && (
        <JoinDialog
          battle={battle}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            void act(`battle:join:${battle.id}`, (key) => joinBattle(battle.id, { seat: joining.seat }, key));
          }}
        />
      )}

      {battle.status === 'open' && me?.seat === battle.creatorSeat && (
        <div className="battle__owner">
          <button type="button" className="button" {...botsPress} data-testid="battle-bots">
            {t('battle.addBots')}
          </button>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void act(`battle:cancel:${battle.id}`, () => cancelBattle(battle.id))}
            data-testid="battle-cancel"
          >
            {t('battle.cancel')}
          </button>
        </div>
      )}
      {error && (
        <p className="battle__error" role="alert">
          {error}
        </p>
      )}
      <BattleProof
        serverSeedHash={battle.serverSeedHash}
        publicSeed={battle.publicSeed}
        serverSeed={battle.serverSeed}
        rolls={battle.rolls}
      />
    </section>
  );
}

/** A seat's reel as its scene is cued: the plan and play, and the round it shows. */
type ReelCue = Atom<SeatReel>;

/** What a reel shows before the battle has loaded (never played: nothing to land on). */
const RESTING: SeatReel = { plan: { images: [], winnerIndex: null }, play: null, round: 0, key: '' };

/**
 * The room's reels, one cue atom per seat, fed straight from the battle's query data: the query cache is
 * watched here, and an answer (bots, a join that fills the battle) or a refetch (a socket event, the poll)
 * cues the reels synchronously when it is stored, before React has rendered anything of it. A cue changes
 * only when what the reel shows changes (a new round, quick mode), never for a total or a seat taken.
 */
function useRoomReels(
  id: string,
  quick: boolean,
): { latest: Atom<Battle | undefined>; cue: (seat: number) => ReelCue } {
  const store = useStore();
  const reducedMotion = usePrefersReducedMotion();
  const calm = useFollowingAtom(quick || reducedMotion);
  const room = useMemo(() => {
    const latest = atom(queryClient.getQueryData<Battle>(queryKeys.battle(id)));
    const cues = new Map<number, ReelCue>();
    return {
      latest,
      cue(seat: number): ReelCue {
        let cue = cues.get(seat);
        if (!cue) {
          cue = seatCue(latest, calm, seat);
          cues.set(seat, cue);
        }
        return cue;
      },
    };
  }, [id, calm]);
  useEffect(() => {
    const key = queryKeys.battle(id);
    const hash = hashKey(key);
    store.set(room.latest, queryClient.getQueryData<Battle>(key));
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== hash) return;
      const battle = event.query.state.data as Battle | undefined;
      if (store.get(room.latest) === battle) return;
      // the cues' subscribers start the reels (their first frame comes after this task); the room's
      // render of the same battle commits now, ahead of it (see BattleRoomPage)
      flushSync(() => store.set(room.latest, battle));
    });
  }, [store, room, id]);
  return room;
}

/** One seat's cue: the reel of the latest battle, the same object as long as it shows the same. */
function seatCue(latest: Atom<Battle | undefined>, calm: PrimitiveAtom<boolean>, seat: number): ReelCue {
  let shown: SeatReel | null = null;
  return atom((get) => {
    const battle = get(latest);
    if (!battle) return shown ?? RESTING;
    shown = nextSeatReel(shown, seatReel(battle, seat, get(calm)));
    return shown;
  });
}

/**
 * "Share battle": a startapp=battle_<id> link to the Mini App (TWA_RETURN_URL), which opens this room;
 * Telegram's share sheet inside Telegram, the clipboard elsewhere.
 */
const ShareBattle = memo(function ShareBattle({ battleId }: { battleId: string }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom).data;
  const [copied, setCopied] = useState(false);
  const share = async () => {
    const link = battleShareLink(config?.twaReturnUrl, battleId, window.location.origin);
    try {
      if ((await shareLink(link, t('telegram.shareText'))) === 'copied') setCopied(true);
    } catch (err) {
      console.error('The battle link could not be shared', err);
    }
  };
  return (
    <div className="battle__share">
      <button
        type="button"
        className="button button--ghost"
        onClick={() => void share()}
        data-testid="battle-share"
      >
        {t('telegram.shareBattle')}
      </button>
      {copied && (
        <span role="status" data-testid="battle-share-copied">
          {t('telegram.linkCopied')}
        </span>
      )}
    </div>
  );
});

interface SeatColumnProps {
  seat: number;
  team: number;
  name: string;
  avatar: string | null;
  isYou: boolean;
  /** the total shown, formatted: of the rounds shown only (the server's total once every round is shown) */
  total: string;
  /** the seat's drops of the rounds shown (those whose reels have landed on every seat) */
  drops: readonly BattleRoll[];
  won: boolean;
  /** the last round this seat's reel landed */
  landed: number;
  /** the seat's reel, null when the round's case has no art to show */
  reel: ReelCue | null;
  /** a seat's reel landed the given round */
  onLanded: (seat: number, round: number) => void;
  canJoin: boolean;
  onJoin: (seat: number) => void;
}

/** Same drops: the same rolls (the query keeps unchanged rolls' objects from one answer to the next). */
function sameSeat(a: SeatColumnProps, b: SeatColumnProps): boolean {
  for (const key of Object.keys(a) as (keyof SeatColumnProps)[]) {
    if (key === 'drops') {
      if (a.drops.length !== b.drops.length || a.drops.some((d, i) => d !== b.drops[i])) return false;
    } else if (!Object.is(a[key], b[key])) return false;
  }
  return true;
}

/** A seat: rendered again only when what it shows changes (a player seated, a round landed, the winner). */
const SeatColumn = memo(function SeatColumn(props: SeatColumnProps) {
  const { seat, team, name, avatar, isYou, total, drops, won, landed, reel, onLanded, canJoin, onJoin } =
    props;
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  return (
    <div
      className="battle__side"
      data-testid={`battle-seat-${seat}`}
      data-you={isYou || undefined}
      data-won={won || undefined}
      data-team={team}
      data-landed={landed}
    >
      <div className="battle__player">
        <Avatar src={avatar} name={name} size={36} />
        <span className="battle__name">
          {name}
          {isYou && ` (${t('battle.you')})`}
        </span>
      </div>
      <span className="battle__seat-total" data-testid={`battle-total-${seat}`}>
        <TonIcon size={14} /> {total}
      </span>
      {canJoin && (
        <button
          type="button"
          className="button battle__join"
          onClick={() => onJoin(seat)}
          data-testid={`battle-join-${seat}`}
        >
          {t('battle.join')}
        </button>
      )}
      <SeatReelView seat={seat} cue={reel} onLanded={onLanded} />
      <ul className="battle__drops" data-testid={`battle-drops-${seat}`}>
        {drops.map((d) => (
          <li key={d.round} className="battle__drop" data-item={d.item.id} title={itemName(d.item)}>
            <ArtImage src={d.item.imageUrl} className="battle__drop-art" />
            <span>{formatTon(d.item.price)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}, sameSeat);

/**
 * A seat's reel: its props never change during a battle, so the scene's host is not rendered again for a
 * round (the cue atom reaches the scene by subscription). It tells the round its reel landed.
 */
const SeatReelView = memo(function SeatReelView(props: {
  seat: number;
  cue: ReelCue | null;
  onLanded: (seat: number, round: number) => void;
}) {
  const { seat, cue, onLanded } = props;
  const { t } = useTranslation();
  const store = useStore();
  const [reelRef, width] = useElementWidth<HTMLDivElement>();
  // the round the reel was cued with last, read when it settles
  const landed = () => {
    if (cue) onLanded(seat, store.get(cue).round);
  };
  const onEvents = useSceneEvents({
    label: 'Battle reel',
    settled: landed,
    // a failed reel must not hide the result: the drops and totals below still show it
    failed: landed,
  });
  return (
    <div
      ref={reelRef}
      className="battle__reel"
      style={{ height: battleReelHeight(REEL_PADDING) }}
      role="img"
      aria-label={t('battle.reelLabel')}
    >
      {width > 0 && cue && (
        <SceneView
          scene="battle-reel"
          cue={cue}
          width={width}
          height={battleReelHeight(REEL_PADDING)}
          dpr={sceneResolution()}
          className="battle__canvas"
          onEvents={onEvents}
        />
      )}
    </div>
  );
});

/** Whether the revealed round's case has art for a reel (a case without any: its round counts as landed). */
function hasReel(battle: Battle): boolean {
  return (battle.cases[Math.max(0, battle.revealedRounds - 1)]?.items.length ?? 0) > 0;
}

/**
 * How many rounds may be shown: every round before the one revealed last, and that one once the reels of
 * every seat have landed on it.
 */
function shownRounds(battle: Battle, landed: Record<number, number>, noReel: boolean): number {
  const round = battle.revealedRounds;
  if (round === 0 || noReel) return round;
  // the round every seat's reel has landed: a room that fell behind (a slow phone, a missed event, a
  // return to a battle under way) shows no round its reels have not played yet
  return Math.min(round, ...battle.seats.map((s) => landed[s.seat] ?? 0));
}

/** The battle's proof: its seeds, and a check of every roll recomputed here in the browser. */
const BattleProof = memo(function BattleProof(battle: {
  serverSeedHash: string;
  publicSeed: string | null;
  serverSeed: string | null;
  rolls: readonly BattleRoll[];
}) {
  const { t } = useTranslation();
  const [result, setResult] = useState<'ok' | 'bad' | null>(null);
  const verify = async () => {
    if (!battle.serverSeed || !battle.publicSeed) return;
    let ok = (await sha256Hex(battle.serverSeed)) === battle.serverSeedHash;
    for (const roll of battle.rolls) {
      const r = await rollInt(
        battle.serverSeed,
        `${battle.publicSeed}:${roll.round}`,
        roll.seat,
        roll.totalWeight,
      );
      if (r !== roll.roll) ok = false;
    }
    setResult(ok ? 'ok' : 'bad');
  };
  return (
    <details className="battle__proof" data-testid="battle-proof">
      <summary>{t('battle.proof.title')}</summary>
      <dl>
        <dt>{t('battle.proof.serverSeedHash')}</dt>
        <dd>{battle.serverSeedHash}</dd>
        <dt>{t('battle.proof.publicSeed')}</dt>
        <dd>{battle.publicSeed ?? t('battle.proof.notYet')}</dd>
        <dt>{t('battle.proof.serverSeed')}</dt>
        <dd>{battle.serverSeed ?? t('battle.proof.notYet')}</dd>
      </dl>
      <p className="battle__proof-text">{t('battle.proof.text')}</p>
      {battle.serverSeed && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => void verify()}
          data-testid="battle-verify"
        >
          {t('battle.proof.verify')}
        </button>
      )}
      {result && <p data-testid="battle-verify-result">{t(`battle.proof.${result}`)}</p>}
    </details>
  );
});
