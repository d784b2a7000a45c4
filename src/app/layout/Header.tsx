import { useAtomValue } from 'jotai';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { WalletSlot } from '../../features/wallet/WalletSlot';
import { formatBalance } from '../../lib/format';
import { Avatar } from '../../lib/ui/Avatar';
import { TonIcon } from '../../lib/ui/TonIcon';
import { balanceValueAtom, meAtom } from '../../state/queries';
import { BackIcon } from './icons';

interface HeaderProps {
  /** shows the back button (on /case/... pages) */
  showBack: boolean;
  onBack: () => void;
}

/**
 * The balance link. It reads the balance itself, so a new balance (an opening's answer, a poll that brings a
 * change) renders this link alone, not the header's user link, avatar and wallet slot.
 */
function HeaderBalance() {
  const { t } = useTranslation();
  const user = useAtomValue(meAtom).data;
  const balance = useAtomValue(balanceValueAtom) ?? user?.balance;
  return (
    <Link to="/profile" className="header__balance">
      <TonIcon size={18} />
      {balance === undefined ? (
        <span className="skeleton header__balance-skeleton" />
      ) : (
        <span className="header__amount" data-testid="header-balance">
          {formatBalance(balance)}
        </span>
      )}
      <span className="visually-hidden">
        {balance === undefined ? t('header.balance') : ` ${t('common.ton')}, ${t('header.balanceWord')}`}
      </span>
    </Link>
  );
}

/** The header: back button, the player (to the profile), the balance, the wallet. Memoized: its props rarely change. */
export const Header = memo(function Header({ showBack, onBack }: HeaderProps) {
  const { t } = useTranslation();
  const me = useAtomValue(meAtom);
  const user = me.data;

  return (
    <header className="header">
      <div className="header__inner">
        {showBack && (
          <button
            type="button"
            className="header__back"
            onClick={onBack}
            aria-label={t('header.back')}
            data-testid="header-back"
          >
            <BackIcon size={22} />
          </button>
        )}
        {/* named by what it shows (the name), then where it goes */}
        <Link to="/profile" className="header__user">
          {user ? (
            <>
              <Avatar src={user.photoUrl} name={user.firstName} size={34} />
              <span className="header__name" data-testid="header-name" dir="auto">
                {user.firstName}
              </span>
              <span className="visually-hidden">{t('header.openProfile')}</span>
            </>
          ) : (
            <>
              <span className="skeleton header__avatar-skeleton" />
              <span className="skeleton header__name-skeleton" />
              <span className="visually-hidden">{t('header.openProfile')}</span>
            </>
          )}
        </Link>
        <HeaderBalance />
        <div className="header__wallet" data-testid="wallet-slot">
          <WalletSlot />
        </div>
      </div>
    </header>
  );
});
