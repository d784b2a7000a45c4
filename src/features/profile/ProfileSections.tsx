import { useAtomValue } from 'jotai';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Achievement, ProfileResponse, RankName, RankView } from '../../../contract/users.ts';
import { formatPercent, formatTon } from '../../lib/format';
import { InvitesCard } from './InvitesCard';
import { QueryState } from '../../lib/ui/QueryState';
import { InventoryActionError, InventoryGrid } from '../inventory/InventoryGrid';
import { useInventoryActions } from '../inventory/useInventoryActions';
import { profileAtom } from '../../state/queries';
import './progress.css';

/** The ranks in order (spec §9), each with its level; the server's rank table gives thresholds and rewards. */
const RANKS = [
  { name: 'Rookie', key: 'ranks.rookie' },
  { name: 'Explorer', key: 'ranks.explorer' },
  { name: 'Drop Hunter', key: 'ranks.dropHunter' },
  { name: 'Case Master', key: 'ranks.caseMaster' },
  { name: 'Bonus Raider', key: 'ranks.bonusRaider' },
  { name: 'Treasure', key: 'ranks.treasure' },
  { name: 'Epic Opener', key: 'ranks.epicOpener' },
] as const satisfies readonly { name: RankName; key: `ranks.${string}` }[];

/** Stroke paths (24 × 24) of each achievement's icon. */
const ACHIEVEMENT_ICONS: Record<Achievement['id'], string[]> = {
  // a gift box
  first_case: [
    'M4 10h16v10H4z',
    'M3 7h18v3H3z',
    'M12 7v13',
    'M12 7C10.5 3.5 7 4 7 5.5S9.5 7 12 7s5-.2 5-1.5S13.5 3.5 12 7Z',
  ],
  // a four-leaf clover
  lucky_strike: [
    'M12 12C9 12 7 10 7 8a2.5 2.5 0 0 1 5-.5A2.5 2.5 0 0 1 17 8c0 2-2 4-5 4Z',
    'M12 12c-3 0-5 2-5 4a2.5 2.5 0 0 0 5 .5 2.5 2.5 0 0 0 5-.5c0-2-2-4-5-4Z',
    'M12 16.5c0 2 .5 3.5 2 5',
  ],
  // stacked boxes
  case_collector: ['M3 13h8v8H3z', 'M13 13h8v8h-8z', 'M8 3h8v8H8z'],
  // a diamond
  high_roller: ['M6 4h12l4 6-10 11L2 10Z', 'M2 10h20', 'M9 4l3 6 3-6', 'M12 10v11'],
};

function AchievementIcon({ id }: { id: Achievement['id'] }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    >
      {ACHIEVEMENT_ICONS[id].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

/** A rank's reward in words: a free spin, TON, or a free opening of a case. */
function useRewardText(): (reward: RankView['reward']) => string {
  const { t } = useTranslation();
  return (reward) =>
    !reward
      ? ''
      : reward.kind === 'spin'
        ? t('retention.ranks.spin')
        : reward.kind === 'ton'
          ? t('retention.ranks.ton', { amount: formatTon(reward.amount!) })
          : t('retention.ranks.case', { case: reward.case?.name ?? '' });
}

/** The level block: the rank reached, the way to the next one, and every rank's reward. */
function LevelCard({ data }: { data: ProfileResponse }) {
  const { t } = useTranslation();
  const rewardText = useRewardText();
  const level = data.level;
  const openings = data.stats.openingsCount;
  const current = Math.max(
    RANKS.findIndex((r) => r.name === level.rank),
    0,
  );
  const ladder = data.ranks;
  const next = ladder.find((r) => !r.reached) ?? null;
  const here = ladder.filter((r) => r.reached).at(-1) ?? null;
  const percent = Math.round(level.progress * 1000) / 10;
  return (
    <section className="profile__section level-card" aria-labelledby="level-title" data-testid="level-card">
      <div className="level-card__head">
        <span className="level-card__badge" aria-hidden="true">
          {level.level}
        </span>
        <div className="level-card__titles">
          <h2 id="level-title" className="level-card__level" data-testid="level-title">
            {t('profile.level', { level: level.level })}
          </h2>
          <span className="level-card__rank" data-testid="level-rank">
            {t(RANKS[current]!.key)}
          </span>
        </div>
        <span className="level-card__count" data-testid="level-progress-text">
          {next
            ? t('retention.ranks.progress', {
                done: openings - (here?.openings ?? 0),
                total: next.openings - (here?.openings ?? 0),
              })
            : t('retention.ranks.top')}
        </span>
      </div>
      <div
        className="level-card__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-labelledby="level-title"
        data-testid="level-progress"
      >
        <span className="level-card__fill" style={{ '--progress': `${percent}%` } as CSSProperties} />
      </div>
      {next?.reward && (
        <p className="level-card__next" data-testid="next-rank-reward">
          {t('retention.ranks.next', {
            rank: t(RANKS[next.level - 1]!.key),
            count: next.openings,
            reward: rewardText(next.reward),
          })}
        </p>
      )}

      <h3 className="level-card__subtitle" data-testid="next-rank-title">
        {t('profile.nextRankReward')}
      </h3>
      <ol className="rank-list" data-testid="rank-list">
        {RANKS.map((rank, index) => {
          const step = ladder[index];
          return (
            <li
              key={rank.name}
              className={`rank${index === current ? ' rank--current' : ''}${index === current + 1 ? ' rank--next' : ''}`}
              data-testid="rank"
              data-current={index === current || undefined}
              data-granted={step?.granted ? true : undefined}
            >
              <span className="rank__level">{t('profile.rankLevel', { level: index + 1 })}</span>
              <span className="rank__name">{t(rank.key)}</span>
              {step && index > 0 && (
                <span className="rank__at">{t('retention.ranks.at', { count: step.openings })}</span>
              )}
              {step?.reward && (
                <span className="rank__reward" data-testid="rank-reward">
                  {rewardText(step.reward)}
                </span>
              )}
              {step?.granted && (
                <span className="rank__received" data-testid="rank-received">
                  {step.granted.item
                    ? t('retention.ranks.receivedItem', { item: step.granted.item.name })
                    : t('retention.ranks.received')}
                </span>
              )}
              {index === current + 1 && <span className="rank__tag">{t('profile.nextRank')}</span>}
              {index > current && (
                <span className="rank__lock" aria-label={t('profile.locked')}>
                  <LockIcon />
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The achievements grid, locked ones dimmed with a lock (spec §2, §9). */
function AchievementsGrid({ achievements }: { achievements: Achievement[] }) {
  const { t } = useTranslation();
  return (
    <section className="profile__section" aria-labelledby="achievements-title">
      <h2 id="achievements-title" className="section-title">
        {t('profile.achievements')}
      </h2>
      <ul className="achievements" data-testid="achievements">
        {achievements.map((a) => (
          <li
            key={a.id}
            className={`achievement${a.unlocked ? ' achievement--unlocked' : ''}`}
            data-testid="achievement"
            data-id={a.id}
            data-unlocked={a.unlocked}
          >
            <span className="achievement__icon" aria-hidden="true">
              {a.unlocked ? <AchievementIcon id={a.id} /> : <LockIcon />}
            </span>
            <span className="achievement__title">{t(`achievements.${a.id}.title`)}</span>
            <span className="achievement__text">{t(`achievements.${a.id}.text`)}</span>
            <span className="achievement__state">
              {a.unlocked ? t('profile.unlocked') : t('profile.locked')}
              {!a.unlocked &&
                a.progress !== undefined &&
                a.progress > 0 &&
                ` · ${formatPercent(Math.floor(a.progress * 100) / 100, 0)}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The inventory grid on the profile: the same grid and actions as the inventory screen. */
function ProfileInventory() {
  const { t } = useTranslation();
  const actions = useInventoryActions();
  return (
    <section className="profile__section profile-inventory" aria-labelledby="profile-inventory-title">
      <div className="profile-inventory__head">
        <h2 id="profile-inventory-title" className="section-title">
          {t('profile.inventory')}
        </h2>
        <Link to="/inventory" className="profile-inventory__link" data-testid="profile-inventory-link">
          {t('profile.openInventory')}
        </Link>
      </div>
      <InventoryActionError actions={actions} />
      <InventoryGrid actions={actions} />
    </section>
  );
}

/** Where the fairness page is reached from. */
function FairnessLink() {
  const { t } = useTranslation();
  return (
    <Link to="/fairness" className="profile__section fairness-link" data-testid="fairness-link">
      <span className="fairness-link__icon" aria-hidden="true">
        <ShieldIcon />
      </span>
      <span className="fairness-link__text">
        <span className="fairness-link__title">{t('profile.fairness')}</span>
        <span className="fairness-link__hint">{t('profile.fairnessText')}</span>
      </span>
      <span aria-hidden="true" className="fairness-link__chevron">
        ›
      </span>
    </Link>
  );
}

/** Level, next-rank rewards, achievements, inventory and the fairness link, in the profile's order (spec §2). */
export function ProfileSections() {
  const { t } = useTranslation();
  const query = useAtomValue(profileAtom);
  return (
    <>
      <QueryState
        query={query}
        testId="profile"
        errorTitle={t('profile.loadError')}
        loading={
          <div className="profile__section" data-testid="profile-loading" aria-busy="true">
            <span className="skeleton profile__stats-skeleton" />
          </div>
        }
      >
        {(profile) => (
          <>
            <LevelCard data={profile} />
            <AchievementsGrid achievements={profile.achievements} />
          </>
        )}
      </QueryState>
      <InvitesCard />
      <ProfileInventory />
      <FairnessLink />
    </>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </svg>
  );
}

function ShieldIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M12 3 4.5 6v6c0 4.5 3.2 7.8 7.5 9 4.3-1.2 7.5-4.5 7.5-9V6Z" />
      <path d="m8.5 12 2.5 2.5 4.5-5" />
    </svg>
  );
}
