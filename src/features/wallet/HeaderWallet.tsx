import {
  TonConnectUIProvider,
  useIsConnectionRestored,
  useTonAddress,
  useTonConnectUI,
  useTonWallet,
} from '@tonconnect/ui-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonAddress } from '../../lib/ton';
import { TonIcon } from '../../lib/ui/TonIcon';
import { copyText } from './clipboard';
import { CheckIcon, ChevronIcon, CopyIcon, DisconnectIcon, WalletIcon } from './icons';
import { currentWalletRuntime } from './runtime';
import { WalletButtonLoading } from './WalletSlot';

/** How long 'Address copied!' shows (spec §9). */
const COPIED_MS = 1000;

/** The header's wallet button with TON Connect UI's provider (loaded lazily, see WalletSlot). */
export function HeaderWallet() {
  return (
    <TonConnectUIProvider instance={currentWalletRuntime().ui}>
      <WalletButton />
    </TonConnectUIProvider>
  );
}

/**
 * Spec §2, §4: a spinner while the previous connection is restored; 'Connect wallet' (opens the TON
 * Connect modal) when disconnected; when connected, the address (first 4 … last 4) opening a 256 px
 * dropdown with Copy address and Disconnect, closed by an outside click or a status change without an
 * account.
 */
function WalletButton() {
  const { t } = useTranslation();
  const [ui] = useTonConnectUI();
  const restored = useIsConnectionRestored();
  const wallet = useTonWallet();
  const address = useTonAddress();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  // A status change without an account: back to disconnected, dropdown closed.
  useEffect(
    () =>
      ui.onStatusChange((next) => {
        if (!next?.account) {
          setOpen(false);
          setCopied(false);
        }
      }),
    [ui],
  );

  // An outside click or Escape closes the dropdown.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  if (!restored) return <WalletButtonLoading />;

  if (!wallet || !address) {
    return (
      <button
        type="button"
        className="wallet-button"
        onClick={() => void ui.openModal()}
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

  const copy = async () => {
    if (await copyText(address)) setCopied(true);
  };

  return (
    <div className="wallet-menu" ref={rootRef}>
      <button
        type="button"
        className="wallet-button wallet-button--connected"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('wallet.menu', { address })}
        title={address}
        onClick={() => setOpen((value) => !value)}
        data-testid="wallet-button"
        data-state="connected"
      >
        <TonIcon size={16} />
        <span className="wallet-button__address">{buttonAddress(address)}</span>
        <span className="wallet-button__chevron" data-open={open || undefined}>
          <ChevronIcon size={14} />
        </span>
      </button>
      {open && (
        <div id={menuId} className="wallet-dropdown" role="menu" data-testid="wallet-dropdown">
          <button
            type="button"
            role="menuitem"
            className="wallet-dropdown__item"
            onClick={() => void copy()}
            data-testid="wallet-copy"
            data-copied={copied || undefined}
          >
            {copied ? <CheckIcon /> : <CopyIcon />}
            <span aria-live="polite">{copied ? t('wallet.copied') : t('wallet.copy')}</span>
          </button>
          <button
            type="button"
            role="menuitem"
            className="wallet-dropdown__item wallet-dropdown__item--danger"
            onClick={() => {
              setOpen(false);
              void ui.disconnect();
            }}
            data-testid="wallet-disconnect"
          >
            <DisconnectIcon />
            <span>{t('wallet.disconnect')}</span>
          </button>
        </div>
      )}
    </div>
  );
}
