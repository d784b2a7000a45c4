import type { ReactNode } from 'react';
import { formatTon } from '../../lib/format';
import { TonIcon } from '../../lib/ui/TonIcon';

/** A step that reports: a picture, a title, a line of text, the amount, and its buttons. */
export function StatusStep({
  testId,
  visual,
  title,
  text,
  amount,
  children,
}: {
  testId: string;
  visual: ReactNode;
  title: string;
  text?: string;
  amount?: string;
  children?: ReactNode;
}) {
  return (
    <div className="deposit__status" data-testid={testId} role="status">
      {visual}
      <h3 className="deposit__status-title">{title}</h3>
      {text && <p className="deposit__status-text">{text}</p>}
      {amount !== undefined && (
        <p className="deposit__status-amount">
          <TonIcon size={18} />+{formatTon(amount, 2)} TON
        </p>
      )}
      {children && <div className="deposit__actions">{children}</div>}
    </div>
  );
}
