import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { profileAddress } from '../../lib/ton';
import { TonIcon } from '../../lib/ui/TonIcon';
import { WalletIcon } from './icons';
import { loadWalletRuntime, walletAtom } from './state';
import './wallet.css';

/**
 * The profile's wallet block (spec §2): the connected address shortened (first 6 ... last 5) with a
 * disconnect action, or a connect button. Reads the mirrored connection; TON Connect loads on demand.
 */
export function ProfileWallet() {
  const { t } = useTranslation();
  const wallet = useAtomValue(walletAtom);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadWalletRuntime().catch((error: unknown) => console.error('Wallet failed to load', error));
  }, []);

  const run = async (action: 'connect' | 'disconnect') => {
    setBusy(true);
    try {
      const runtime = await loadWalletRuntime();
      await (action === 'connect' ? runtime.connect() : runtime.disconnect());
    } catch (error) {
      console.error(`Wallet ${action} failed`, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="wallet-card" data-testid="profile-wallet" data-state={wallet.status}>
      <span className="wallet-card__icon" aria-hidden="true">
        <WalletIcon size={20} />
      </span>
      <div className="wallet-card__body">
        <span className="wallet-card__label">{t('wallet.title')}</span>
        {wallet.status === 'loading' && <span className="skeleton wallet-card__skeleton" />}
        {wallet.status === 'disconnected' && (
          <span className="wallet-card__hint">{t('wallet.notConnected')}</span>
        )}
        {wallet.status === 'connected' && (
          <span className="wallet-card__address" title={wallet.address} data-testid="profile-wallet-address">
            <TonIcon size={16} />
            {profileAddress(wallet.address)}
          </span>
        )}
      </div>
      {wallet.status === 'disconnected' && (
        <button
          type="button"
          className="button wallet-card__action"
          disabled={busy}
          onClick={() => void run('connect')}
          data-testid="profile-wallet-connect"
        >
          {t('wallet.connect')}
        </button>
      )}
      {wallet.status === 'connected' && (
        <button
          type="button"
          className="button button--ghost wallet-card__action wallet-card__action--danger"
          disabled={busy}
          onClick={() => void run('disconnect')}
          data-testid="profile-wallet-disconnect"
        >
          {t('wallet.disconnect')}
        </button>
      )}
    </div>
  );
}
