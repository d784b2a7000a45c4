import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTon } from '../../lib/format';
import { queryClient } from '../../state/store';
import { queryKeys } from '../../state/queries';
import { formatCountdown, raceAtom, secondsLeft } from './api';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { Avatar } from '../../lib/ui/Avatar';
import { InfoSheet } from './InfoSheet';
import './race.css';

/** The subscribers' giveaway: a case worth 1000 coins (spec §2). */
const GIVEAWAY_WORTH = 1000;
const GIVEAWAY_ART = '/assets/cases/royal.svg';

type Sheet = 'how' | 'prizes' | null;

/**
 * The daily wager race (spec §2 extended by issue 17): the real countdown to the race's end, the
 * leaderboard by TON wagered (from the server's books), the player's own place, and the prizes.
 */
export function RacePage() {
  const { t } = useTranslation();
  const [sheet, setSheet] = useState<Sheet>(null);
  const [joined, setJoined] = useState(false);
  const close = useCallback(() => setSheet(null), []);
  const query = useAtomValue(raceAtom);
  const { data } = query;
  const race = data?.race;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = data ? secondsLeft(data.race.endsAt, data.race.now, data.fetchedAt, now) : null;
  // the race ended: the next one has started, read it
  useEffect(() => {
    if (left === 0) void queryClient.invalidateQueries({ queryKey: queryKeys.race });
  }, [left]);

  return (
    <section className="screen race" data-testid="race-page">
      <h1 className="screen__title">{t('race.title')}</h1>

      <section className="race__hero" aria-label={t('race.timerLabel')}>
        <p className="race__starts" data-testid="race-starts">
          {t('race.endsIn')}
        </p>
        <p className="race__timer" data-testid="race-timer" role="timer">
          {left === null ? '--:--:--' : formatCountdown(left)}
        </p>
        {race?.you && (
          <p className="race__you" data-testid="race-you">
            {race.you.place === null
              ? t('race.youUnranked')
              : t('race.youPlace', { place: race.you.place, points: formatTon(race.you.points) })}
          </p>
        )}
        <div className="race__actions">
          <button
            type="button"
            className="button button--ghost race__action"
            onClick={() => setSheet('how')}
            data-testid="race-how"
          >
            {t('race.howToEarn')}
          </button>
          <button
            type="button"
            className="button race__action"
            onClick={() => setSheet('prizes')}
            data-testid="race-prizes"
          >
            {t('race.viewPrizes')}
          </button>
        </div>
      </section>

      <section className="race__board" aria-labelledby="race-board-title">
        <h2 id="race-board-title" className="race__section-title">
          {t('race.leaderboard')}
        </h2>
        <QueryState
          query={query}
          testId="race"
          compact
          errorTitle={t('race.loadError')}
          isEmpty={(answer) => answer.race.leaderboard.length === 0}
          empty={<p className="race__empty">{t('race.empty')}</p>}
        >
          {(answer) => (
            <ol className="race__leaders" data-testid="race-leaderboard">
              {answer.race.leaderboard.map((entry) => (
                <li key={entry.place} className="race__leader" data-rank={entry.place}>
                  <span className="race__rank">{t('race.rank', { rank: entry.place })}</span>
                  <Avatar src={entry.avatar} name={entry.name} size={36} />
                  <span className="race__player">{entry.name}</span>
                  <span className="race__points">
                    {t('race.points', { points: formatTon(entry.points) })}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </QueryState>
      </section>

      <section className="race__giveaway" aria-labelledby="race-giveaway-title" data-testid="race-giveaway">
        <h2 id="race-giveaway-title" className="race__section-title">
          {t('race.giveaway.title')}
        </h2>
        <div className="race__giveaway-body">
          <span className="race__giveaway-art">
            <ArtImage src={GIVEAWAY_ART} className="race__giveaway-img" />
          </span>
          <div className="race__giveaway-text">
            <span className="race__giveaway-case">{t('race.giveaway.case')}</span>
            <span className="race__giveaway-worth">
              <CoinIcon />
              {t('race.giveaway.worth', { amount: GIVEAWAY_WORTH })}
            </span>
          </div>
        </div>
        <p className="race__giveaway-instruction">{t('race.giveaway.instruction')}</p>
        <button
          type="button"
          className="button race__participate"
          onClick={() => setJoined(true)}
          disabled={joined}
          data-testid="race-participate"
        >
          {joined ? t('race.giveaway.participating') : t('race.giveaway.participate')}
        </button>
      </section>

      {sheet === 'how' && (
        <InfoSheet title={t('race.how.title')} onClose={close} testId="race-how-sheet">
          <p className="info-sheet__text">{t('race.how.text')}</p>
          <ul className="info-sheet__list">
            <li>{t('race.how.cases')}</li>
            <li>{t('race.how.upgrades')}</li>
            <li>{t('race.how.battles')}</li>
          </ul>
        </InfoSheet>
      )}
      {sheet === 'prizes' && (
        <InfoSheet title={t('race.prizes.title')} onClose={close} testId="race-prizes-sheet">
          <p className="info-sheet__text">{t('race.prizes.text')}</p>
          <ul className="info-sheet__list">
            {race?.prizes.map((prize, i) => (
              <li key={i}>{t('race.prizes.place', { place: i + 1, amount: formatTon(prize) })}</li>
            ))}
          </ul>
        </InfoSheet>
      )}
    </section>
  );
}

/** A gold coin: the race's giveaway is priced in coins. */
function CoinIcon() {
  return (
    <svg
      className="race__coin"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="8" cy="8" r="7.5" fill="#f5a524" />
      <circle cx="8" cy="8" r="5.5" fill="#ffd34d" stroke="#e08e0b" strokeWidth="1" />
      <path d="M8 4.8v6.4M6.2 6.4h3.6" stroke="#b86e00" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}
