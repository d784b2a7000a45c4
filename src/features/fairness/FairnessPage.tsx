import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FairnessState, Item, RotateResponse } from '../../../contract/cases.ts';
import type { BetHistoryEntry } from '../../../contract/fairness.ts';
import { apiErrorText } from '../../lib/api-error';
import { verifyOpening, type Verification } from '../../lib/fair';
import { ArtImage } from '../../lib/ui/ArtImage';
import { QueryState } from '../../lib/ui/QueryState';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { formatDateTime, formatInteger } from '../../lib/format';
import { copyText } from '../wallet/clipboard';
import {
  betHistoryAtom,
  fairnessAtom,
  fetchBetProof,
  fetchCase,
  rotateSeedAtom,
  saveClientSeedAtom,
} from './queries';
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
  const [revealed, setRevealed] = useState<(RotateResponse['revealed'] & { by: 'rotate' | 'seed' }) | null>(
    null,
  );
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
        onSuccess: (answer) => {
          setDraft(null);
          setSaved(true);
          // the used pair was retired: its server seed is public now, shown as a rotation shows it
          if (answer.revealed) setRevealed({ ...answer.revealed, by: 'seed' });
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
        onClick={() =>
          rotate.mutate(undefined, {
            onSuccess: (answer) => setRevealed({ ...answer.revealed, by: 'rotate' }),
          })
        }
        data-testid="fairness-rotate"
      >
        {rotate.isPending ? t('fairness.rotating') : t('fairness.rotate')}
      </button>
      {revealed && (
        <dl className="fairness-fields fairness-revealed" data-testid="fairness-revealed">
          {revealed.by === 'seed' && (
            <p className="fairness-hint fairness-revealed__why" data-testid="fairness-revealed-by-seed">
              {t('proofs.revealedBySeed')}
            </p>
          )}
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
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'done'; result: Verification; total: number }
  | { state: 'error' };

/** Where a bet's proof is read inside the app: openings and upgrades on the proof page, battles on theirs. */
export function proofPath(bet: Pick<BetHistoryEntry, 'kind' | 'betId'>): string {
  return bet.kind === 'battle' ? `/battle/${bet.betId}` : `/proof/${bet.betId}`;
}

/** A hash shown in full (wrapping), with a button that copies it. */
function CopyableHash({ hash, testId }: { hash: string; testId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <span className="bet-hash">
      <code className="fairness-mono bet-hash__value" data-testid={testId}>
        {hash}
      </code>
      <button
        type="button"
        className="button button--ghost bet-hash__copy"
        onClick={() =>
          void copyText(hash).then((ok) => {
            setCopied(ok);
            if (ok) setTimeout(() => setCopied(false), COPIED_MS);
          })
        }
        data-testid={`${testId}-copy`}
      >
        {copied ? t('proofs.copied') : t('proofs.copy')}
      </button>
    </span>
  );
}

/** How long "Copied" shows after a copy (spec §9: an address copied shows 1 s). */
const COPIED_MS = 1000;

/** The line that says what the bet was: the case opened, the upgrade played, the battle fought. */
function BetTitle({ bet }: { bet: BetHistoryEntry }) {
  const { t, i18n } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const title = i18n.resolvedLanguage === 'ru' ? bet.titleRu : bet.title;
  const item = bet.item ? itemName(bet.item) : null;
  switch (bet.kind) {
    case 'case':
      return <span className="opening-row__item">{item}</span>;
    case 'upgrade':
      return (
        <span className="opening-row__item">
          {t('proofs.upgradeTitle', { stake: title, target: item ?? '' })}
        </span>
      );
    case 'battle':
      return (
        <span className="opening-row__item">
          {t('proofs.battleTitle', { format: bet.battle?.format ?? '', count: bet.battle?.rounds ?? 1 })}
        </span>
      );
  }
}

/** Won / lost / succeeded / failed, or nothing (an opening). */
function BetOutcome({ bet }: { bet: BetHistoryEntry }) {
  const { t } = useTranslation();
  if (bet.kind === 'case') return null;
  const text =
    bet.success === null
      ? t('proofs.inProgress')
      : bet.kind === 'upgrade'
        ? bet.success
          ? t('proofs.upgradeWon')
          : t('proofs.upgradeLost')
        : bet.success
          ? t('proofs.battleWon')
          : t('proofs.battleLost');
  return (
    <span
      className={`bet-outcome ${bet.success === null ? '' : bet.success ? 'bet-outcome--won' : 'bet-outcome--lost'}`}
      data-testid="history-outcome"
    >
      {text}
    </span>
  );
}

/** One past bet of any kind: what it was, when, its seeds, its proof one tap away. */
function BetRow({ bet }: { bet: BetHistoryEntry }) {
  const { t, i18n } = useTranslation();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const title = i18n.resolvedLanguage === 'ru' ? bet.titleRu : bet.title;

  // an opening is recomputed right here from its public proof (the weight table it was rolled against)
  async function verify() {
    setCheck({ state: 'checking' });
    try {
      const proof = await fetchBetProof(bet.betId);
      if (proof.kind !== 'case' || !proof.serverSeed) throw new Error('not an opening with a revealed seed');
      const entries =
        proof.weightTable?.entries ??
        (await fetchCase(proof.case.id)).items.map((e) => ({ itemId: e.item.id, weight: e.weight }));
      const result = await verifyOpening({
        serverSeed: proof.serverSeed,
        proof,
        itemId: proof.item.id,
        entries,
      });
      setCheck({ state: 'done', result, total: proof.totalWeight });
    } catch {
      setCheck({ state: 'error' });
    }
  }

  const date = formatDateTime(bet.createdAt);
  // an opening and a battle name their case; an upgrade names its stake in its title
  const meta = bet.kind === 'upgrade' ? null : title;
  return (
    <li className="opening-row" data-testid="history-entry" data-bet-id={bet.betId} data-kind={bet.kind}>
      <div className="opening-row__main">
        <div className="opening-row__art">
          {bet.item ? <ArtImage src={bet.item.imageUrl} className="opening-row__img" /> : null}
        </div>
        <div className="opening-row__text">
          <span className="bet-kind">{t(`proofs.kind.${bet.kind}`)}</span>
          <BetTitle bet={bet} />
          <span className="opening-row__meta">
            {meta ? `${meta} · ` : ''}
            {bet.kind === 'battle' ? t('proofs.seat') : t('fairness.nonce')} {formatInteger(bet.nonce)} ·{' '}
            {date}
          </span>
          <BetOutcome bet={bet} />
        </div>
        {bet.kind === 'case' && (
          <button
            type="button"
            className="button opening-row__verify"
            disabled={!bet.revealed || check.state === 'checking'}
            title={bet.revealed ? undefined : t('fairness.notRevealed')}
            onClick={() => void verify()}
            data-testid="verify-button"
          >
            {check.state === 'checking' ? t('fairness.verifying') : t('fairness.verify')}
          </button>
        )}
      </div>
      {bet.weightTableHash && (
        <div className="bet-table">
          <span className="fairness-hint">{t('verify.tableHash')}</span>
          <CopyableHash hash={bet.weightTableHash} testId="history-table-hash" />
        </div>
      )}
      <Link to={proofPath(bet)} className="opening-row__proof" data-testid="history-proof-link">
        {t('proofs.open')} · <span translate="no">{bet.betId}</span>
      </Link>
      {!bet.revealed && (
        <span className="fairness-hint">
          {bet.kind === 'battle' ? t('proofs.battleNotRevealed') : t('fairness.notRevealed')}
        </span>
      )}
      {check.state === 'error' && (
        <p className="fairness-error" role="alert">
          {t('fairness.error')}
        </p>
      )}
      {check.state === 'done' && bet.item && (
        <VerificationResult result={check.result} item={bet.item} total={check.total} />
      )}
    </li>
  );
}

function VerificationResult({ result, item, total }: { result: Verification; item: Item; total: number }) {
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
          {t('fairness.checkRoll', { roll: formatInteger(result.roll), total: formatInteger(total) })}
        </li>
        <li>
          {mark(result.itemMatches)}{' '}
          {result.itemMatches === null
            ? t('fairness.oddsChanged')
            : t('fairness.checkItem', { item: itemName(item) })}
        </li>
      </ul>
    </div>
  );
}

/** The player's bets of every kind (GET /fairness/history), newest first. */
function RecentBets() {
  const { t } = useTranslation();
  const query = useAtomValue(betHistoryAtom);
  return (
    <section className="fairness-history" aria-labelledby="fairness-history-title">
      <h2 id="fairness-history-title" className="fairness-card__title">
        {t('proofs.history')}
      </h2>
      <QueryState
        query={query}
        testId="history"
        compact
        errorTitle={t('proofs.historyError')}
        isEmpty={(data) => data.bets.length === 0}
        empty={<p className="fairness-hint">{t('proofs.historyEmpty')}</p>}
      >
        {(data) => (
          <ul className="opening-list" data-testid="history-list">
            {data.bets.map((bet) => (
              <BetRow key={`${bet.kind}:${bet.betId}`} bet={bet} />
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
      <RecentBets />
    </section>
  );
}
