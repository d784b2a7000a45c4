import { useAtomValue } from 'jotai';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { WalletIcon } from './icons';
import { hasStoredConnection, loadWalletRuntime, walletRequestedAtom, whenIdle } from './state';
import './wallet.css';

// The header's wallet button. TON Connect UI (its runtime, manifest, wallet list and logos) is not part of
// the first screen and loads only on wallet intent: a tap on this button, the deposit sheet, the profile's
// wallet block. Until then the button is a plain Connect button; a tap shows a spinner while the wallet
// chunk loads, then opens the TON Connect modal. A device that connected a wallet before loads it once the
// first screen is up and the browser is idle, so the connection is restored and the address shown.

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
  const requested = useAtomValue(walletRequestedAtom);
  const [HeaderWallet, setHeaderWallet] = useState(() => lazyHeaderWallet());
  useEffect(() => {
    if (!hasStoredConnection()) return;
    return whenIdle(() => {
      loadWalletRuntime().catch((error: unknown) => console.error('Wallet failed to load', error));
    });
  }, []);

  if (!requested) return <ConnectButton onClick={() => void connectOnIntent()} />;
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

/** The tap that asks for TON Connect: the button spins while it loads, then the modal opens. */
async function connectOnIntent(): Promise<void> {
  try {
    const runtime = await loadWalletRuntime();
    // a connection restored meanwhile (another tab connected) needs no modal
    await runtime.ui.connectionRestored;
    if (!runtime.isConnected()) await runtime.connect();
  } catch (error) {
    console.error('Wallet failed to load', error);
  }
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
      <ConnectButton
        onClick={() => {
          this.props.onRetry();
          this.setState({ failed: false });
        }}
      />
    );
  }
}

/** 'Connect wallet' before TON Connect is loaded (and after it failed to): the same look as the real one. */
function ConnectButton({ onClick }: { onClick: () => void }) {
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
