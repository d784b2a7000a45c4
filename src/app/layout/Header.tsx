import { useAtomValue } from 'jotai';
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

export function Header({ showBack, onBack }: HeaderProps) {
  const { t } = useTranslation();
  const me = useAtomValue(meAtom);
  const user = me.data;
  const balance = useAtomValue(balanceValueAtom) ?? user?.balance;

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
        <Link
          to="/profile"
          className="header__user"
          // the accessible name starts with what the link shows (the name), then says where it goes
          aria-label={user ? t('header.openProfileOf', { name: user.firstName }) : t('header.openProfile')}
        >
          {user ? (
            <>
              <Avatar src={user.photoUrl} name={user.firstName} size={34} />
              <span className="header__name" data-testid="header-name">
                {user.firstName}
              </span>
            </>
          ) : (
            <>
              <span className="skeleton header__avatar-skeleton" />
              <span className="skeleton header__name-skeleton" />
            </>
          )}
        </Link>
        <Link
          to="/profile"
          className="header__balance"
          aria-label={
            balance === undefined
              ? t('header.balance')
              : t('header.balanceOf', { amount: formatBalance(balance) })
          }
        >
          <TonIcon size={18} />
          {balance === undefined ? (
            <span className="skeleton header__balance-skeleton" />
          ) : (
            <span className="header__amount" data-testid="header-balance">
              {formatBalance(balance)}
            </span>
          )}
        </Link>
        <div className="header__wallet" data-testid="wallet-slot">
          <WalletSlot />
        </div>
      </div>
    </header>
  );
}
