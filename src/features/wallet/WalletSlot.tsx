import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { WalletIcon } from './icons';
import { loadWalletRuntime, whenIdle } from './state';
import './wallet.css';

// The header's wallet button. TON Connect UI is not part of the first screen: this slot shows a loading
// button, and once the first screen has rendered and the browser is idle, loads the wallet chunk
// (TON Connect UI, its provider and the real button), which restores the previous connection.

function lazyHeaderWallet() {
  return lazy(async () => {
    await loadWalletRuntime();
    const { HeaderWallet } = await import('./HeaderWallet');
    return { default: HeaderWallet };
  });
}

/** The button while TON Connect loads or restores the previous connection: a spinner. */
export function WalletButtonLoading() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="wallet-button wallet-button--loading"
      disabled
      aria-busy="true"
      aria-label={t('wallet.restoring')}
      data-testid="wallet-button"
      data-state="loading"
    >
      <span className="wallet-spinner" aria-hidden="true" />
    </button>
  );
}

export function WalletSlot() {
  const [ready, setReady] = useState(false);
  const [HeaderWallet, setHeaderWallet] = useState(() => lazyHeaderWallet());
  useEffect(() => whenIdle(() => setReady(true)), []);

  if (!ready) return <WalletButtonLoading />;
  return (
    <WalletLoadBoundary onRetry={() => setHeaderWallet(() => lazyHeaderWallet())}>
      <Suspense fallback={<WalletButtonLoading />}>
        <HeaderWallet />
      </Suspense>
    </WalletLoadBoundary>
  );
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

/** If the wallet chunk or its config fails to load, a Connect button that tries again (never a broken header). */
class WalletLoadBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('Wallet failed to load', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <RetryButton
        onClick={() => {
          this.props.onRetry();
          this.setState({ failed: false });
        }}
      />
    );
  }
}

function RetryButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="wallet-button"
      onClick={onClick}
      aria-label={t('wallet.connect')}
      title={t('wallet.connect')}
      data-testid="wallet-button"
      data-state="disconnected"
    >
      <WalletIcon size={16} />
      <span className="wallet-button__label">{t('wallet.connectShort')}</span>
    </button>
  );
}
