import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import './deposit.css';

interface DepositSheetProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The deposit bottom sheet. For now only its frame: the method choice (TON, CryptoBot, gifts), amount
 * entry and waiting states come with the deposit issue.
 */
export function DepositSheet({ open, onClose }: DepositSheetProps) {
  const { t } = useTranslation();
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  if (!open) return null;
  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="deposit-sheet"
        onClick={(event) => event.stopPropagation()}
      >
        <div className="sheet__handle" aria-hidden="true" />
        <h2 id={titleId} className="sheet__title">
          {t('deposit.title')}
        </h2>
        <p className="sheet__text">{t('deposit.text')}</p>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </div>
  );
}
