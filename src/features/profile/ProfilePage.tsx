import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LANGUAGES, setLanguage } from '../../i18n';
import { formatBalance } from '../../lib/format';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { balanceValueAtom, meAtom, profileAtom } from '../../state/queries';
import { BattleHistory } from '../battle/BattleHistory';
import { DepositSheet } from '../deposit/DepositSheet';
import { ProfileWallet } from '../wallet/ProfileWallet';
import { ProfileSections } from './ProfileSections';
import './profile.css';

/** `/profile?openDeposit=true` (where `/deposit` leads) opens the deposit sheet. */
const OPEN_DEPOSIT_PARAM = 'openDeposit';
/** `&promo=CODE` (the home banner's) enters that promo code in the sheet. */
const PROMO_PARAM = 'promo';

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const wantsDeposit = params.get(OPEN_DEPOSIT_PARAM) === 'true';
  const [depositOpen, setDepositOpen] = useState(wantsDeposit);
  const [promoCode, setPromoCode] = useState(params.get(PROMO_PARAM));
  // Asked again while already on this page: open it (state adjusted during render, no extra effect pass).
  if (wantsDeposit && !depositOpen) setDepositOpen(true);
  if (wantsDeposit && params.get(PROMO_PARAM) && params.get(PROMO_PARAM) !== promoCode) {
    setPromoCode(params.get(PROMO_PARAM));
  }

  // Once open, clear the query so a reload or going back does not open it again.
  useEffect(() => {
    if (!wantsDeposit) return;
    const next = new URLSearchParams(params);
    next.delete(OPEN_DEPOSIT_PARAM);
    next.delete(PROMO_PARAM);
    setParams(next, { replace: true });
  }, [wantsDeposit, params, setParams]);

  const closeDeposit = useCallback(() => setDepositOpen(false), []);

  const { data: user } = useAtomValue(meAtom);
  const balance = useAtomValue(balanceValueAtom);
  const { data: profile } = useAtomValue(profileAtom);
  const shownBalance = balance ?? user?.balance;
  const fullName = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '';
  const language = i18n.resolvedLanguage;

  return (
    <section className="screen profile" aria-labelledby="profile-title">
      <h1 id="profile-title" className="screen__title">
        {t('profile.title')}
      </h1>

      <div className="profile__card">
        <Avatar src={user?.photoUrl} name={user?.firstName} size={72} />
        <div className="profile__who">
          <span className="profile__name" data-testid="profile-name" dir="auto">
            {fullName || <span className="skeleton profile__name-skeleton" />}
          </span>
          {user?.username && (
            <span className="profile__username" data-testid="profile-username" dir="ltr">
              @{user.username}
            </span>
          )}
          {profile && (
            <span className="profile__stat">
              {t('profile.openings', { count: profile.stats.openingsCount })}
            </span>
          )}
        </div>
      </div>

      <div className="profile__balance">
        <div>
          <span className="profile__label">{t('profile.balance')}</span>
          <span className="profile__amount" data-testid="profile-balance">
            <TonIcon size={22} />
            {shownBalance === undefined ? '—' : formatBalance(shownBalance)}
          </span>
        </div>
        <button type="button" className="button" onClick={() => setDepositOpen(true)}>
          {t('profile.deposit')}
        </button>
      </div>

      <ProfileWallet />

      <div className="profile__section">
        <span className="profile__label">{t('profile.language')}</span>
        <div className="profile__languages" role="group" aria-label={t('profile.language')}>
          {LANGUAGES.map((lng) => (
            <button
              key={lng}
              type="button"
              className="profile__language"
              aria-pressed={language === lng}
              data-testid={`lang-${lng}`}
              lang={lng}
              onClick={() => void setLanguage(lng)}
            >
              {t(`language.${lng}`)}
            </button>
          ))}
        </div>
      </div>

      <ProfileSections />

      <BattleHistory />

      <DepositSheet open={depositOpen} onClose={closeDeposit} promoCode={promoCode} />
    </section>
  );
}
