import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Battle, BattleFormat, BattleMode } from '../../../contract/battles.ts';
import { sumTon } from '../../../contract/money.ts';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { hapticImpact } from '../../lib/haptics';
import { useMoneyAction } from '../../lib/money-action';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { TonIcon } from '../../lib/ui/TonIcon';
import { casesAtom, meAtom } from '../../state/queries';
import { unseenBattles } from '../../state/unseen';
import { battleEventsAtom, battleLobbyAtom, createBattle, joinBattle } from './api';
import { BattleCardSummary } from './BattleCardSummary';
import { JoinDialog } from './JoinDialog';
import { FORMATS, MAX_ROUNDS, freeSeats, mySeat } from './model';
import './battle.css';
import { useCatalogueTexts } from '../../state/catalogue-texts';

/**
 * Case battles (issue 17): the lobby of open and running battles with Join, and the create panel (cases
 * from the catalogue, seats, mode, total cost). The lobby follows the battles socket.
 */
export function BattlePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useAtomValue(battleEventsAtom);
  const lobby = useAtomValue(battleLobbyAtom);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // a seat is paid for only after the player confirms its price; one join per confirmation
  const [asking, setAsking] = useState<Battle | null>(null);
  const money = useMoneyAction('battle');

  const join = async (battle: Battle) => {
    const seat = money.run(`battle:join:${battle.id}`, (key) => joinBattle(battle.id, {}, key));
    if (!seat) return;
    setError(null);
    try {
      await seat;
      hapticImpact('light');
      void navigate(`/battle/${battle.id}`);
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.join')));
    }
  };

  return (
    <section className="screen battle" data-testid="battle-page">
      <div className="battle__head">
        <h1 className="screen__title">{t('battle.title')}</h1>
        <button
          type="button"
          className="button battle__create-toggle"
          onClick={() => setCreating((c) => !c)}
          aria-expanded={creating}
          data-testid="battle-create-toggle"
        >
          {creating ? t('battle.close') : t('battle.create')}
        </button>
      </div>

      <UnseenBattles />

      {creating && (
        <CreatePanel
          onCreated={(id) => {
            void navigate(`/battle/${id}`);
          }}
        />
      )}

      {error && (
        <p className="battle__error" role="alert">
          {error}
        </p>
      )}

      <h2 className="battle__section-title">{t('battle.lobby')}</h2>
      <QueryState
        query={lobby}
        testId="battle-lobby"
        compact
        errorTitle={t('battle.errors.load')}
        isEmpty={(battles) => battles.length === 0}
        empty={<p className="battle__empty">{t('battle.empty')}</p>}
      >
        {(battles) => (
          <ul className="battle__lobby" data-testid="battle-lobby">
            {battles.map((battle) => {
              const seated = mySeat(battle) !== null;
              const open = battle.status === 'open';
              return (
                <li
                  key={battle.id}
                  className="battle__card"
                  data-testid="battle-card"
                  data-battle={battle.id}
                >
                  <BattleCardSummary
                    battle={battle}
                    status={t('battle.seatsTaken', {
                      taken: battle.seats.length - freeSeats(battle),
                      total: battle.seats.length,
                    })}
                  />
                  {open && !seated ? (
                    <button
                      type="button"
                      className="button battle__join"
                      disabled={money.busy}
                      onClick={() => setAsking(battle)}
                      aria-haspopup="dialog"
                      data-testid="battle-join"
                    >
                      {t('battle.join')}
                    </button>
                  ) : (
                    <Link className="button button--ghost battle__join" to={`/battle/${battle.id}`}>
                      {seated ? t('battle.open') : t('battle.watch')}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
      {asking && (
        <JoinDialog
          battle={asking}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            void join(asking);
          }}
        />
      )}
    </section>
  );
}

/**
 * The player's battles they left before the end (or reloaded away from): one link each to its room, where
 * the rounds and the result show. Gone once the result has been on screen.
 */
function UnseenBattles() {
  const { t } = useTranslation();
  const playerId = useAtomValue(meAtom).data?.id;
  const ids = playerId === undefined ? [] : unseenBattles(playerId);
  if (ids.length === 0) return null;
  return (
    <ul className="battle__unseen" data-testid="battle-unseen">
      {ids.map((id) => (
        <li key={id}>
          <Link className="button battle__unseen-link" to={`/battle/${id}`} data-testid="battle-unseen-link">
            {t('battle.unseen')}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function CreatePanel({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const { caseName } = useCatalogueTexts();
  const { data: cases } = useAtomValue(casesAtom);
  const playable = useMemo(
    () => (cases ?? []).filter((c) => c.isActive && !c.isLocked && c.items.length > 0),
    [cases],
  );
  const [picked, setPicked] = useState<string[]>([]);
  const [format, setFormat] = useState<BattleFormat>('1v1');
  const [mode, setMode] = useState<BattleMode>('normal');
  const money = useMoneyAction('battle');
  const [error, setError] = useState<string | null>(null);
  const byId = new Map(playable.map((c) => [c.id, c]));
  // the sum in nanoTON so that the shown total is exact
  const totalNano = sumTon(picked.map((id) => byId.get(id)?.price ?? '0'));

  const create = async () => {
    // one tap, one battle: the same choices again after a lost answer are the same intent (same key)
    const created = money.run(`battle:create:${format}:${mode}:${picked.join(',')}`, (key) =>
      createBattle({ format, mode, caseIds: picked }, key),
    );
    if (!created) return;
    setError(null);
    try {
      const battle = await created;
      hapticImpact('medium');
      onCreated(battle.id);
    } catch (err) {
      setError(apiErrorText(err, t('battle.errors.create')));
    }
  };

  return (
    <section className="battle__create" data-testid="battle-create">
      <h2 className="battle__section-title">{t('battle.pickCases', { max: MAX_ROUNDS })}</h2>
      <ul className="battle__catalogue">
        {playable.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="battle__pick"
              disabled={picked.length >= MAX_ROUNDS}
              onClick={() => setPicked((p) => [...p, c.id])}
              data-testid={`battle-pick-${c.id}`}
            >
              <ArtImage src={c.imageUrl} className="battle__pick-art" />
              <span className="battle__pick-name">{caseName(c)}</span>
              <span className="battle__pick-price">{formatTon(c.price)}</span>
            </button>
          </li>
        ))}
      </ul>
      <ol className="battle__picked" data-testid="battle-picked" aria-label={t('battle.rounds')}>
        {picked.map((id, i) => (
          <li key={i}>
            <button
              type="button"
              className="battle__picked-case"
              onClick={() => setPicked((p) => p.filter((_, k) => k !== i))}
              aria-label={t('battle.removeCase', { name: byId.has(id) ? caseName(byId.get(id)!) : id })}
            >
              <ArtImage src={byId.get(id)?.imageUrl ?? ''} className="battle__picked-art" />
            </button>
          </li>
        ))}
      </ol>
      <div className="battle__options" role="group" aria-label={t('battle.seats')}>
        {FORMATS.map((f) => (
          <button
            key={f}
            type="button"
            className="battle__option"
            aria-pressed={format === f}
            onClick={() => setFormat(f)}
            data-testid={`battle-format-${f}`}
          >
            {f}
          </button>
        ))}
      </div>
      <div className="battle__options" role="group" aria-label={t('battle.mode')}>
        {(['normal', 'crazy'] as const).map((m) => (
          <button
            key={m}
            type="button"
            className="battle__option"
            aria-pressed={mode === m}
            onClick={() => setMode(m)}
            data-testid={`battle-mode-${m}`}
          >
            {t(`battle.modes.${m}`)}
          </button>
        ))}
      </div>
      <p className="battle__mode-help">{t(`battle.modeHelp.${mode}`)}</p>
      <div className="battle__create-foot">
        <span className="battle__total" data-testid="battle-total">
          {t('battle.totalCost')} <TonIcon size={16} /> {formatTon(totalNano)}
        </span>
        <button
          type="button"
          className="button"
          disabled={money.busy || picked.length === 0}
          onClick={() => void create()}
          data-testid="battle-create-submit"
        >
          {t('battle.createSubmit')}
        </button>
      </div>
      {error && (
        <p className="battle__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
