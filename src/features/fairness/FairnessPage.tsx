import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FairnessState, HistoryEntry, RotateResponse } from '../../../contract/cases.ts';
import { apiErrorText } from '../../lib/api-error';
import { verifyOpening, type Verification } from '../../lib/fair';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { fairnessAtom, fetchCase, recentOpeningsAtom, rotateSeedAtom, saveClientSeedAtom } from './queries';
import './fairness.css';

/** What PUT /fairness/client-seed accepts: 1 to 64 visible ASCII characters. */
const CLIENT_SEED_PATTERN = /^[\x21-\x7E]{1,64}$/;

/** The seed pair's query with its loading, error and offline states. */
function SeedPanel() {
  const { t } = useTranslation();
  const query = useAtomValue(fairnessAtom);
  return (
    <QueryState
      query={query}
      testId="fairness"
      compact
      errorTitle={t('fairness.loadError')}
      loading={<div className="fairness-card fairness-card--loading" aria-busy="true" />}
    >
      {(data) => <SeedForm data={data} />}
    </QueryState>
  );
}

/** The seed pair: the hash committed to, the client seed (editable), the nonce, and rotation. */
function SeedForm({ data }: { data: FairnessState }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<RotateResponse['revealed'] | null>(null);
  const [saved, setSaved] = useState(false);

  const save = useAtomValue(saveClientSeedAtom);
  const rotate = useAtomValue(rotateSeedAtom);
  const busy = save.isPending || rotate.isPending;
  const failure = save.error ?? rotate.error;

  const value = draft ?? data.clientSeed;
  const valid = CLIENT_SEED_PATTERN.test(value);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && value !== data.clientSeed && !busy) {
      save.mutate(value, {
        onSuccess: () => {
          setDraft(null);
          setSaved(true);
        },
      });
    }
  };

  return (
    <section className="fairness-card" aria-labelledby="fairness-current">
      <h2 id="fairness-current" className="fairness-card__title">
        {t('fairness.current')}
      </h2>
      <dl className="fairness-fields">
        <dt>{t('fairness.serverSeedHash')}</dt>
        <dd className="fairness-mono" data-testid="fairness-hash">
          {data.serverSeedHash}
        </dd>
        <dt>{t('fairness.nonce')}</dt>
        <dd className="fairness-mono" data-testid="fairness-nonce">
          {data.nonce}
        </dd>
      </dl>
      <form className="fairness-seed-form" onSubmit={onSubmit}>
        <label htmlFor="fairness-client-seed">{t('fairness.clientSeed')}</label>
        <div className="fairness-seed-form__row">
          <input
            id="fairness-client-seed"
            className="fairness-input fairness-mono"
            value={value}
            maxLength={64}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={!valid}
            aria-describedby="fairness-client-seed-hint"
            onChange={(e) => {
              setDraft(e.target.value);
              setSaved(false);
            }}
            data-testid="fairness-client-seed"
          />
          <button
            type="submit"
            className="button"
            disabled={busy || !valid || value === data.clientSeed}
            data-testid="fairness-save"
          >
            {save.isPending ? t('fairness.saving') : t('fairness.save')}
          </button>
        </div>
        <span id="fairness-client-seed-hint" className="fairness-hint">
          {saved ? t('fairness.saved') : t('fairness.clientSeedHint')}
        </span>
      </form>
      <button
        type="button"
        className="button button--ghost fairness-rotate"
        disabled={busy}
        onClick={() => rotate.mutate(undefined, { onSuccess: (answer) => setRevealed(answer.revealed) })}
        data-testid="fairness-rotate"
      >
        {rotate.isPending ? t('fairness.rotating') : t('fairness.rotate')}
      </button>
      {revealed && (
        <dl className="fairness-fields fairness-revealed" data-testid="fairness-revealed">
          <dt>{t('fairness.revealed')}</dt>
          <dd className="fairness-mono" data-testid="fairness-revealed-seed">
            {revealed.serverSeed}
          </dd>
          <dt>{t('fairness.revealedHash')}</dt>
          <dd className="fairness-mono">{revealed.serverSeedHash}</dd>
        </dl>
      )}
      {failure && (
        <p className="fairness-error" role="alert">
          {apiErrorText(failure, t('fairness.error'))}
        </p>
      )}
    </section>
  );
}

type Check =
  { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: Verification } | { state: 'error' };

/** One past opening with a Verify button (enabled once its server seed is revealed). */
function OpeningRow({ opening }: { opening: HistoryEntry }) {
  const { t, i18n } = useTranslation();
  const { itemName, caseName } = useCatalogueTexts();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const serverSeed = opening.serverSeed;

  async function verify() {
    if (!serverSeed) return;
    setCheck({ state: 'checking' });
    try {
      const box = await fetchCase(opening.case.id);
      const result = await verifyOpening({
        serverSeed,
        proof: opening.proof,
        itemId: opening.item.id,
        entries: box.items.map((e) => ({ itemId: e.item.id, weight: e.weight })),
      });
      setCheck({ state: 'done', result });
    } catch {
      setCheck({ state: 'error' });
    }
  }

  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(new Date(opening.createdAt));
  return (
    <li className="opening-row" data-testid="history-entry" data-opening-id={opening.id}>
      <div className="opening-row__main">
        <div className="opening-row__art">
          <ArtImage src={opening.item.imageUrl} className="opening-row__img" />
        </div>
        <div className="opening-row__text">
          <span className="opening-row__item">{itemName(opening.item)}</span>
          <span className="opening-row__meta">
            {caseName(opening.case)} · {t('fairness.nonce')} {opening.proof.nonce} · {date}
          </span>
        </div>
        <button
          type="button"
          className="button opening-row__verify"
          disabled={!serverSeed || check.state === 'checking'}
          title={serverSeed ? undefined : t('fairness.notRevealed')}
          onClick={() => void verify()}
          data-testid="verify-button"
        >
          {check.state === 'checking' ? t('fairness.verifying') : t('fairness.verify')}
        </button>
      </div>
      <Link to={`/verify/${opening.betId}`} className="opening-row__proof" data-testid="history-proof-link">
        {t('verify.link')} · <span translate="no">{opening.betId}</span>
      </Link>
      {!serverSeed && <span className="fairness-hint">{t('fairness.notRevealed')}</span>}
      {check.state === 'error' && (
        <p className="fairness-error" role="alert">
          {t('fairness.error')}
        </p>
      )}
      {check.state === 'done' && <VerificationResult result={check.result} opening={opening} />}
    </li>
  );
}

function VerificationResult({ result, opening }: { result: Verification; opening: HistoryEntry }) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const mark = (ok: boolean | null) => (ok === null ? '–' : ok ? '✓' : '✗');
  return (
    <div
      className={`verification ${result.ok ? 'verification--ok' : 'verification--bad'}`}
      data-testid="verify-result"
      data-ok={result.ok}
      role="status"
    >
      <span className="verification__verdict">
        {result.ok ? '✓' : '✗'} {result.ok ? t('fairness.verified') : t('fairness.mismatch')}
      </span>
      <ul className="verification__checks">
        <li>
          {mark(result.hashMatches)} {t('fairness.checkHash')}
        </li>
        <li>
          {mark(result.rollMatches)}{' '}
          {t('fairness.checkRoll', { roll: result.roll, total: opening.proof.totalWeight })}
        </li>
        <li>
          {mark(result.itemMatches)}{' '}
          {result.itemMatches === null
            ? t('fairness.oddsChanged')
            : t('fairness.checkItem', { item: itemName(opening.item) })}
        </li>
      </ul>
    </div>
  );
}

function RecentOpenings() {
  const { t } = useTranslation();
  const query = useAtomValue(recentOpeningsAtom);
  return (
    <section className="fairness-history" aria-labelledby="fairness-history-title">
      <h2 id="fairness-history-title" className="fairness-card__title">
        {t('fairness.history')}
      </h2>
      <QueryState
        query={query}
        testId="history"
        compact
        errorTitle={t('fairness.historyError')}
        isEmpty={(data) => data.openings.length === 0}
        empty={<p className="fairness-hint">{t('fairness.historyEmpty')}</p>}
      >
        {(data) => (
          <ul className="opening-list" data-testid="history-list">
            {data.openings.map((o) => (
              <OpeningRow key={o.id} opening={o} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/**
 * The fairness page: the current seed pair (hash, client seed, nonce), rotation, and a verifier that
 * recomputes past openings in the browser from their revealed server seeds (DESIGN.md rule 4).
 */
export function FairnessPage() {
  const { t } = useTranslation();
  return (
    <section className="screen fairness" aria-labelledby="fairness-title" data-testid="fairness-page">
      <h1 id="fairness-title" className="screen__title">
        {t('fairness.title')}
      </h1>
      <p className="fairness-intro">{t('fairness.intro')}</p>
      <SeedPanel />
      <RecentOpenings />
    </section>
  );
}
