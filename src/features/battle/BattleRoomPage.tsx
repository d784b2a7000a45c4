import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { Link, useParams } from 'react-router';
import { battleReelHeight, type BattleCase, type BattleReelScenePlan } from '../../../scenes/battle-reel';
import type { Battle, BattleSeat } from '../../../contract/battles.ts';
import { sumTon } from '../../../contract/money.ts';
import { apiErrorText } from '../../lib/api-error';
import { rollInt, sha256Hex } from '../../lib/fair';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useMoneyAction } from '../../lib/money-action';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { ArtImage } from '../../lib/ui/ArtImage';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { markBattleSeen } from '../../state/unseen';
import { battleAtom, battleEventsAtom, cancelBattle, fillWithBots, joinBattle } from './api';
import { BattleOutcome } from './BattleOutcome';
import { JoinDialog } from './JoinDialog';
import { landedIndex, mySeat, winningSeats } from './model';
import { battleShareLink } from '../../lib/start-param';
import { shareLink } from '../../lib/telegram';
import { configAtom } from '../../state/queries';
import './battle.css';

const REEL_PADDING = 8;

/**
 * One battle, for its players and for spectators (no sign-in needed): a column per seat with the player,
 * their total and a reel that lands on the server's item each round, all seats at once; the winner's side
 * is highlighted at the end. The state is the server's (GET /battles/:id, refetched on every socket event),
 * so a player who reconnects sees where the battle is. It is read through the battle's query atom,
 * which the battles socket keeps fresh. Quick mode skips the reel animation.
 */
export function BattleRoomPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  useAtomValue(battleEventsAtom);
  const query = useAtomValue(battleAtom(id));
  const [quick, setQuick] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the seat a Join tap asks to pay for (confirmed first, like sell all)
  const [asking, setAsking] = useState<number | null>(null);
  // rounds whose reels have landed on every seat: drops, totals and the winner show only up to it
  const [landed, setLanded] = useState<Record<number, number>>({});
  const money = useMoneyAction('battle');
  const battle = query.data;

  // one action per tap (guarded at the tap, its intent's key), its failure shown below
  const act = async (intent: string, run: (idempotencyKey: string) => Promise<unknown>) => {
    const done = money.run(intent, run);
    if (!done) return;
    setError(null);
    try {
      await done;
      hapticImpact('light');
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.action')));
    }
  };

  const shown = battle ? shownRounds(battle, landed) : 0;
  const over = battle !== undefined && battle.status === 'finished' && shown >= battle.cases.length;
  const seated = battle !== undefined && mySeat(battle) !== null;
  // the player's battle result is on screen: nothing left to show them later
  useEffect(() => {
    if (over && seated) markBattleSeen(id);
  }, [over, seated, id]);

  if (query.isError && !battle) {
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
        {battle.seats.map((seat) => (
          <SeatColumn
            key={seat.seat}
            battle={battle}
            seat={seat}
            quick={quick}
            won={winners.has(seat.seat)}
            shown={shown}
            onLanded={(round) =>
              setLanded((l) => (l[seat.seat] === round ? l : { ...l, [seat.seat]: round }))
            }
            canJoin={battle.status === 'open' && me === null && seat.player === null}
            onJoin={() => setAsking(seat.seat)}
          />
        ))}
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
          <button
            type="button"
            className="button"
            onClick={() => void act(`battle:bots:${battle.id}`, () => fillWithBots(battle.id))}
            data-testid="battle-bots"
          >
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
      <BattleProof battle={battle} />
    </section>
  );
}

/**
 * "Share battle": a startapp=battle_<id> link to the Mini App (TWA_RETURN_URL), which opens this room;
 * Telegram's share sheet inside Telegram, the clipboard elsewhere.
 */
function ShareBattle({ battleId }: { battleId: string }) {
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
}

function SeatColumn(props: {
  battle: Battle;
  seat: BattleSeat;
  quick: boolean;
  won: boolean;
  /** rounds shown (drops and total): those whose reels have landed on every seat */
  shown: number;
  /** this seat's reel landed the given round */
  onLanded: (round: number) => void;
  canJoin: boolean;
  onJoin: () => void;
}) {
  const { battle, seat, quick, won, shown, onLanded, canJoin, onJoin } = props;
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const [reelRef, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  const round = battle.revealedRounds;
  const box = battle.cases[Math.max(0, round - 1)];
  const images: BattleCase[] = useMemo(() => reelCases(box), [box]);
  // the later rounds' cases: the reel bakes them while it waits, so each round's spin starts at once
  const upcoming = useMemo(
    () => battle.cases.slice(Math.max(round, 1)).map(reelCases),
    [battle.cases, round],
  );
  const landed = round > 0 ? landedIndex(battle, round, seat.seat) : null;
  const [settledRound, setSettledRound] = useState(0);
  // no reel to wait for (a case without art): the round counts as landed
  const noReel = images.length === 0;
  useEffect(() => {
    if (noReel) onLanded(round);
    else if (settledRound === round) onLanded(round);
  }, [noReel, settledRound, round, onLanded]);
  // the plan changes only at phase edges: a new round's case or landing item
  const plan = useMemo<BattleReelScenePlan>(
    () => ({ images, winnerIndex: landed, reducedMotion: quick || reducedMotion, upcoming }),
    [images, landed, quick, reducedMotion, upcoming],
  );
  const cue = useSceneCue(plan, landed === null ? null : `${battle.id}:${round}`);
  // the round the reel is playing now, read when it settles (the events' handlers may be the first render's)
  const playing = useRef(round);
  useEffect(() => {
    playing.current = round;
  }, [round]);
  const onEvents = useSceneEvents({
    label: 'Battle reel',
    settled: () => setSettledRound(playing.current),
    // a failed reel must not hide the result: the drops and totals below still show it
    failed: () => setSettledRound(playing.current),
  });
  // a round's drop and the running total show when its reels land (the scene's settled event), never before
  const drops = battle.rolls.filter((r) => r.seat === seat.seat && r.round <= shown);
  const total = sumTon(drops.map((d) => d.item.price));
  const name = seat.player ? (seat.isBot ? t('battle.bot') : seat.player.name) : t('battle.waiting');

  return (
    <div
      className="battle__side"
      data-testid={`battle-seat-${seat.seat}`}
      data-you={seat.isYou || undefined}
      data-won={won || undefined}
      data-team={seat.team}
      data-landed={settledRound}
    >
      <div className="battle__player">
        <Avatar src={seat.player?.avatar ?? null} name={name} size={36} />
        <span className="battle__name">
          {name}
          {seat.isYou && ` (${t('battle.you')})`}
        </span>
      </div>
      <span className="battle__seat-total" data-testid={`battle-total-${seat.seat}`}>
        <TonIcon size={14} /> {formatTon(shown >= battle.revealedRounds ? seat.total : total)}
      </span>
      {canJoin && (
        <button
          type="button"
          className="button battle__join"
          onClick={onJoin}
          data-testid={`battle-join-${seat.seat}`}
        >
          {t('battle.join')}
        </button>
      )}
      <div
        ref={reelRef}
        className="battle__reel"
        style={{ height: battleReelHeight(REEL_PADDING) }}
        role="img"
        aria-label={t('battle.reelLabel')}
      >
        {width > 0 && images.length > 0 && (
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
      <ul className="battle__drops" data-testid={`battle-drops-${seat.seat}`}>
        {drops.map((d) => (
          <li key={d.round} className="battle__drop" data-item={d.item.id} title={itemName(d.item)}>
            <ArtImage src={d.item.imageUrl} className="battle__drop-art" />
            <span>{formatTon(d.item.price)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A case's items as the reel's tiles. */
function reelCases(box: Battle['cases'][number] | undefined): BattleCase[] {
  return (box?.items ?? []).map((i) => ({ id: i.id, name: i.name, imageUrl: i.imageUrl }));
}

/**
 * How many rounds may be shown: every round before the one revealed last, and that one once the reels of
 * every seat have landed on it.
 */
function shownRounds(battle: Battle, landed: Record<number, number>): number {
  const round = battle.revealedRounds;
  if (round === 0) return 0;
  // the round every seat's reel has landed: a room that fell behind (a slow phone, a missed event, a
  // return to a battle under way) shows no round its reels have not played yet
  return Math.min(round, ...battle.seats.map((s) => landed[s.seat] ?? 0));
}

/** The battle's proof: its seeds, and a check of every roll recomputed here in the browser. */
function BattleProof({ battle }: { battle: Battle }) {
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
}
