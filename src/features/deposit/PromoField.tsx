import { useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromoApplyResponse, PromoStateResponse, PendingPromo } from '../../../contract/retention.ts';
import { api } from '../../api';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { hapticNotification } from '../../lib/haptics';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';

const promoKey = ['promo'] as const;

/** GET /promo → the code waiting for the player's next deposit. */
const promoAtom = atomWithQuery(() => ({
  queryKey: promoKey,
  queryFn: () => api.request<PromoStateResponse>('/promo'),
}));

function PendingLine({ pending }: { pending: PendingPromo }) {
  const { t } = useTranslation();
  return (
    <p className="deposit-promo__state" data-testid="promo-pending" role="status">
      {pending.maxBonus
        ? t('retention.promo.pendingCap', {
            code: pending.code,
            percent: pending.percent.toLocaleString(),
            max: formatTon(pending.maxBonus),
          })
        : t('retention.promo.pending', { code: pending.code, percent: pending.percent.toLocaleString() })}
    </p>
  );
}

/**
 * The promo code field of the deposit sheet: a code for a bonus on the next deposit waits here until the
 * deposit is credited (the bonus comes with it); a code for a fixed credit is credited at once. One tap,
 * one request with its own Idempotency-Key.
 */
export function PromoField({ initialCode }: { initialCode: string | null }) {
  const { t } = useTranslation();
  const inputId = useId();
  const state = useAtomValue(promoAtom);
  const [code, setCode] = useState(initialCode ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [credited, setCredited] = useState<PromoApplyResponse | null>(null);
  const guard = useRef(false);

  const apply = async () => {
    if (guard.current || code.trim() === '') return;
    guard.current = true;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.money<PromoApplyResponse>('/promo/apply', { body: { code: code.trim() } });
      queryClient.setQueryData(queryKeys.balance, answer.balance);
      queryClient.setQueryData<PromoStateResponse>(promoKey, { pending: answer.pending });
      if (answer.credited) setCredited(answer);
      setCode('');
      hapticNotification('success');
    } catch (failure) {
      setError(apiErrorText(failure));
      hapticNotification('error');
    } finally {
      guard.current = false;
      setBusy(false);
    }
  };

  const pending = state.data?.pending ?? null;
  return (
    <div className="deposit-promo" data-testid="promo-field">
      {pending && <PendingLine pending={pending} />}
      {credited && (
        <p className="deposit-promo__state" data-testid="promo-credited" role="status">
          {t('retention.promo.credited', { code: credited.code, amount: formatTon(credited.credited!) })}
        </p>
      )}
      {!pending && (
        <>
          <label className="deposit__label" htmlFor={inputId}>
            {t('retention.promo.label')}
          </label>
          <div className="deposit-promo__row">
            <input
              id={inputId}
              className="deposit-promo__input"
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              placeholder={t('retention.promo.placeholder')}
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                setError(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  void apply();
                }
              }}
              aria-invalid={error ? true : undefined}
              data-testid="promo-input"
            />
            <button
              type="button"
              className="button deposit-promo__apply"
              onClick={() => void apply()}
              disabled={busy || code.trim() === ''}
              aria-busy={busy || undefined}
              data-testid="promo-apply"
            >
              {busy ? t('retention.promo.applying') : t('retention.promo.apply')}
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="deposit__error" role="alert" data-testid="promo-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** After a deposit is credited, the waiting code is used: read the state again. */
export function refreshPromo(): void {
  void queryClient.invalidateQueries({ queryKey: promoKey });
}
