import { useCallback, useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { shieldTaps } from '../../lib/ui/tap-shield';

interface InfoSheetProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}

/** A small bottom sheet of explanatory text; closes on the backdrop, the close button or Escape. */
export function InfoSheet({ title, onClose: close, children, testId }: InfoSheetProps) {
  const { t } = useTranslation();
  // the taps aimed at the closing sheet are caught by the close guard, not passed to what is beneath
  const onClose = useCallback(() => {
    shieldTaps();
    close();
  }, [close]);
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, [onClose]);

  return (
    <div className="info-sheet__backdrop" onClick={onClose}>
      <div
        className="info-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
      >
        <div className="info-sheet__handle" aria-hidden="true" />
        <h2 id={titleId} className="info-sheet__title">
          {title}
        </h2>
        {children}
        <button
          ref={closeRef}
          type="button"
          className="button button--ghost info-sheet__close"
          onClick={onClose}
        >
          {t('common.close')}
        </button>
      </div>
    </div>
  );
}
