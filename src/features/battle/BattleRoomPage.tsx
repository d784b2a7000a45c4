import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { Link, useParams } from 'react-router';
import { battleReelHeight, type BattleCase, type BattleReelScenePlan } from '../../../scenes/battle-reel';
import type { Battle, BattleSeat } from '../../../contract/battles.ts';
import { apiErrorText } from '../../lib/api-error';
import { rollInt, sha256Hex } from '../../lib/fair';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useElementWidth, usePrefersReducedMotion, sceneResolution } from '../../lib/scene-hooks';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { ArtImage } from '../../lib/ui/ArtImage';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { battleAtom, battleEventsAtom, cancelBattle, fillWithBots, joinBattle } from './api';
import { landedIndex, mySeat, winningSeats } from './model';
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
  const battle = query.data;

  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      hapticImpact('light');
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.action')));
    }
  };

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
  const winners = winningSeats(battle);
  const rounds = battle.cases.length;
  return (
    <section
      className="screen battle"
      data-testid="battle-room"
      data-status={battle.status}
      data-round={battle.revealedRounds}
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
            canJoin={battle.status === 'open' && me === null && seat.player === null}
            onJoin={() => void act(() => joinBattle(battle.id, { seat: seat.seat }))}
          />
        ))}
      </div>

      {battle.status === 'open' && me?.seat === battle.creatorSeat && (
        <div className="battle__owner">
          <button
            type="button"
            className="button"
            onClick={() => void act(() => fillWithBots(battle.id))}
            data-testid="battle-bots"
          >
            {t('battle.addBots')}
          </button>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void act(() => cancelBattle(battle.id))}
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

function SeatColumn(props: {
  battle: Battle;
  seat: BattleSeat;
  quick: boolean;
  won: boolean;
  canJoin: boolean;
  onJoin: () => void;
}) {
  const { battle, seat, quick, won, canJoin, onJoin } = props;
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const [reelRef, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  const round = battle.revealedRounds;
  const box = battle.cases[Math.max(0, round - 1)];
  const images: BattleCase[] = useMemo(
    () => (box?.items ?? []).map((i) => ({ id: i.id, name: i.name, imageUrl: i.imageUrl })),
    [box],
  );
  const landed = round > 0 ? landedIndex(battle, round, seat.seat) : null;
  const [settledRound, setSettledRound] = useState(0);
  // the plan changes only at phase edges: a new round's case or landing item
  const plan = useMemo<BattleReelScenePlan>(
    () => ({ images, winnerIndex: landed, reducedMotion: quick || reducedMotion }),
    [images, landed, quick, reducedMotion],
  );
  const cue = useSceneCue(plan, landed === null ? null : `${battle.id}:${round}`);
  const onEvents = useSceneEvents({
    label: 'Battle reel',
    settled: () => setSettledRound(round),
    // a failed reel must not hide the result: the drops and totals below still show it
    failed: () => setSettledRound(round),
  });
  const drops = battle.rolls.filter((r) => r.seat === seat.seat);
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
        <TonIcon size={14} /> {formatTon(seat.total)}
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
