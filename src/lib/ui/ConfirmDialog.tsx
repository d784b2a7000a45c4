import { useEffect, useId, useRef, type ReactNode } from 'react';
import { shieldTaps } from './tap-shield';
import './confirm-dialog.css';

interface ConfirmDialogProps {
  title: string;
  /** what the action will do, shown before it is done */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** test ids: `<testId>`, `<testId>-confirm`, `<testId>-cancel` */
  testId: string;
}

/**
 * Whether this is the dialog's first answer (the second of two quick taps is not): marks it answered and
 * puts the close guard over the screen.
 */
function answerOnce(answered: { current: boolean }): boolean {
  if (answered.current) return false;
  answered.current = true;
  shieldTaps();
  return true;
}

/**
 * Asks before an action that cannot be undone: what it will do, then Confirm or Cancel (Escape cancels).
 * It answers once: the first Confirm or Cancel closes it at once (a flag set at the tap), and the taps that
 * follow it (a double tap, a tap during the close) are swallowed by the close guard, not passed beneath.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  testId,
}: ConfirmDialogProps) {
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useEffect(() => cancel.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        if (answerOnce(answered)) onCancel();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onCancel]);
  const confirm = () => {
    if (answerOnce(answered)) onConfirm();
  };
  const dismiss = () => {
    if (answerOnce(answered)) onCancel();
  };

  return (
    <div className="confirm-backdrop" onClick={dismiss}>
      <div
        className="confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId} className="confirm__title">
          {title}
        </h2>
        <div className="confirm__body">{children}</div>
        <div className="confirm__actions">
          <button
            ref={cancel}
            type="button"
            className="button button--ghost"
            data-testid={`${testId}-cancel`}
            onClick={dismiss}
          >
            {cancelLabel}
          </button>
          <button type="button" className="button" data-testid={`${testId}-confirm`} onClick={confirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
