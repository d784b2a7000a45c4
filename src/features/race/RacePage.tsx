import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArtImage } from '../../lib/ui/ArtImage';
import { Avatar } from '../../lib/ui/Avatar';
import { InfoSheet } from './InfoSheet';
import './race.css';

/** Six leaderboard places, each a placeholder player with 8120 points (spec §2). */
const LEADERBOARD = [1, 2, 3, 4, 5, 6] as const;
const PLACEHOLDER_POINTS = 8120;
/** The subscribers' giveaway: a case worth 1000 coins (spec §2). */
const GIVEAWAY_WORTH = 1000;
const GIVEAWAY_ART = '/assets/cases/royal.svg';

type Sheet = 'how' | 'prizes' | null;

/** The race (a static demonstration, spec §2): nothing here is live. */
export function RacePage() {
  const { t } = useTranslation();
  const [sheet, setSheet] = useState<Sheet>(null);
  const [joined, setJoined] = useState(false);
  const close = useCallback(() => setSheet(null), []);

  return (
    <section className="screen race" data-testid="race-page">
      <h1 className="screen__title">{t('race.title')}</h1>

      <section className="race__hero" aria-label={t('race.timerLabel')}>
        <p className="race__starts" data-testid="race-starts">
          {t('race.startsIn')}
        </p>
        <p className="race__timer" data-testid="race-timer">
          {t('race.timer')}
        </p>
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
        <ol className="race__leaders" data-testid="race-leaderboard">
          {LEADERBOARD.map((rank) => (
            <li key={rank} className="race__leader" data-rank={rank}>
              <span className="race__rank">{t('race.rank', { rank })}</span>
              <Avatar src={null} name={t('race.player')} size={36} />
              <span className="race__player">{t('race.player')}</span>
              <span className="race__points">{t('race.points', { points: PLACEHOLDER_POINTS })}</span>
            </li>
          ))}
        </ol>
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
            <li>{t('race.how.friends')}</li>
          </ul>
        </InfoSheet>
      )}
      {sheet === 'prizes' && (
        <InfoSheet title={t('race.prizes.title')} onClose={close} testId="race-prizes-sheet">
          <p className="info-sheet__text">{t('race.prizes.text')}</p>
          <ul className="info-sheet__list">
            <li>{t('race.prizes.first')}</li>
            <li>{t('race.prizes.second')}</li>
            <li>{t('race.prizes.third')}</li>
            <li>{t('race.prizes.rest')}</li>
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
