import { useTranslation } from 'react-i18next';
import type { Battle } from '../../../contract/battles.ts';
import { formatTon } from '../../lib/format';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';

interface JoinDialogProps {
  battle: Battle;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Paying for a seat asks first (like sell all): what the seat costs and how many rounds it plays. */
export function JoinDialog({ battle, onConfirm, onCancel }: JoinDialogProps) {
  const { t } = useTranslation();
  const price = formatTon(battle.cost, 2);
  return (
    <ConfirmDialog
      testId="battle-join-dialog"
      title={t('battle.joinConfirm.title')}
      confirmLabel={t('battle.joinConfirm.confirm', { price })}
      cancelLabel={t('common.cancel')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p className="battle__join-text" data-testid="battle-join-price">
        {t('battle.joinConfirm.text', { price, count: battle.cases.length })}
      </p>
    </ConfirmDialog>
  );
}
