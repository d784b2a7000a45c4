import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { BetProof } from '../../../contract/fairness.ts';
import { TWO_POW_52 } from '../../lib/fair';
import { formatInteger, formatNumber } from '../../lib/format';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { copyText } from '../wallet/clipboard';
import { fetchPublicBet, fetchWeightTable, publicBetAtom, publicBetCheckAtom } from './queries';
import { compute, type Computation, type Game } from './recompute';
import './verify.css';

function Steps({ result, game }: { result: Computation; game: Game }) {
  const { t } = useTranslation();
  const entryName = useEntryName(game);
  const { steps } = result;
  return (
    <ol className="verify-steps" data-testid="verify-steps">
      <li>
        <strong>{t('verify.stepHash')}</strong>
        <code className="verify-mono">{result.hash}</code>
      </li>
      {steps.rounds.map((round) => (
        <li key={round.round}>
          <strong>{t('verify.stepHmac', { round: round.round })}</strong>
          <span>
            {t('verify.hmacInput')}: <code className="verify-mono">{round.message}</code>
          </span>
          <code className="verify-mono" data-testid="verify-digest">
            {round.digest}
          </code>
          <ul className="verify-chunks">
            {round.chunks.map((chunk, i) => (
              <li key={i} className={chunk.accepted ? 'verify-chunk--taken' : undefined}>
                <code className="verify-mono">{chunk.hex}</code> = {chunk.value}
                {chunk.accepted ? ` ← ${t('verify.taken')}` : ''}
              </li>
            ))}
          </ul>
        </li>
      ))}
      <li>
        <strong>{t('verify.stepRange')}</strong>
        <span className="verify-mono">
          limit = ⌊2^52 / {steps.n}⌋ × {steps.n} = {steps.limit}; {steps.taken} mod {steps.n} ={' '}
          <span data-testid="verify-roll">{steps.roll}</span>
        </span>
      </li>
      {game.kind === 'upgrade' ? (
        <li>
          <strong>{t('verify.stepThreshold')}</strong>
          <span className="verify-mono">
            {steps.roll} × {game.denominator} {result.success ? '<' : '≥'} {game.numerator} × 2^52 (
            {formatNumber(steps.roll / TWO_POW_52, 8, 8)} {result.success ? '<' : '≥'}{' '}
            {formatNumber(Number(game.numerator) / Number(game.denominator), 8, 8)})
          </span>
          <span data-testid="verify-outcome">{result.success ? t('verify.success') : t('verify.fail')}</span>
        </li>
      ) : result.walk ? (
        <li>
          <strong>{t('verify.stepWalk')}</strong>
          <ul className="verify-walk">
            {result.walk.map((row, i) => (
              <li key={i} className={i === result.picked ? 'verify-chunk--taken' : undefined}>
                <span className="verify-mono">
                  [{row.from}, {row.to})
                </span>{' '}
                {entryName(row.itemId, row.name)}
                {i === result.picked ? ` ← ${t('verify.picked')}` : ''}
              </li>
            ))}
          </ul>
          <span data-testid="verify-outcome">
            {result.picked !== null
              ? entryName(result.walk[result.picked]!.itemId, result.walk[result.picked]!.name)
              : ''}
          </span>
        </li>
      ) : null}
    </ol>
  );
}

/** The proof of one bet by its public id, recomputed here. */
function BetVerification({ betId, onFill }: { betId: string; onFill: (bet: BetProof) => void }) {
  const { t } = useTranslation();
  const { itemName, caseName } = useCatalogueTexts();
  const proof = useAtomValue(publicBetAtom(betId));
  const bet = proof.data;
  const check = useAtomValue(publicBetCheckAtom(betId));

  if (proof.isPending) return <div className="verify-card" aria-busy="true" />;
  if (proof.isError || !bet) return <p className="verify-card verify-bad">{t('verify.notFound')}</p>;

  return (
    <section className="verify-card" data-testid="verify-bet">
      <h2 className="verify-card__title">
        {bet.kind === 'case'
          ? t('verify.caseBet', { name: caseName(bet.case) })
          : bet.kind === 'wheel'
            ? t('retention.verifyWheel')
            : t('verify.upgradeBet', { stake: itemName(bet.stake), target: itemName(bet.target) })}
      </h2>
      <dl className="verify-fields">
        <dt>{t('verify.betId')}</dt>
        <dd className="verify-mono" translate="no">
          {bet.betId}
        </dd>
        <dt>{t('verify.serverSeedHash')}</dt>
        <dd className="verify-mono">{bet.serverSeedHash}</dd>
        <dt>{t('verify.serverSeed')}</dt>
        <dd className="verify-mono">{bet.serverSeed ?? '—'}</dd>
        <dt>{t('verify.clientSeed')}</dt>
        <dd className="verify-mono">{bet.clientSeed}</dd>
        <dt>{t('verify.nonce')}</dt>
        <dd className="verify-mono">{bet.nonce}</dd>
        <dt>{t('verify.recorded')}</dt>
        <dd data-testid="verify-recorded">
          {bet.kind === 'case'
            ? t('proofs.recordedCase', {
                item: itemName(bet.item),
                roll: formatInteger(bet.roll),
                total: formatInteger(bet.totalWeight),
              })
            : bet.kind === 'wheel'
              ? `${t('retention.verifySegment', { segment: bet.segment + 1, prize: bet.weightTable.entries[bet.segment]?.itemId ?? '' })} (${formatInteger(bet.roll)} / ${formatInteger(bet.totalWeight)})`
              : t('proofs.recordedUpgrade', {
                  outcome: bet.success ? t('verify.success') : t('verify.fail'),
                  rolled: formatNumber(bet.rolled, 8),
                  chance: `${bet.chanceNumerator}/${bet.chanceDenominator}`,
                })}
        </dd>
        {bet.kind === 'case' && bet.weightTable && (
          <>
            <dt>{t('verify.tableHash')}</dt>
            <dd>
              <CopyHash hash={bet.weightTable.hash} />
            </dd>
          </>
        )}
      </dl>
      {bet.serverSeed && (
        <button
          type="button"
          className="verify-fill"
          onClick={() => onFill(bet)}
          data-testid="verify-fill-from-bet"
        >
          {t('proofs.fillForm')}
        </button>
      )}
      {!bet.serverSeed ? (
        <p className="verify-note" data-testid="verify-unrevealed">
          {t('verify.unrevealed')}
        </p>
      ) : check.isPending ? (
        <div aria-busy="true" />
      ) : check.isError ? (
        <p className="verify-bad">{t('verify.error')}</p>
      ) : (
        <>
          <p
            className={check.data.ok ? 'verify-good' : 'verify-bad'}
            data-testid="verify-verdict"
            data-ok={check.data.ok}
          >
            {check.data.ok ? t('verify.matches') : t('verify.mismatch')}
          </p>
          <Steps result={check.data.result} game={check.data.game} />
        </>
      )}
    </section>
  );
}

/** A public bet id as the server issues them (contract/fairness.ts BET_ID_PATTERN). */
const BET_ID = /^[A-Za-z0-9_-]{8,32}$/;

/** The paste form's values, as typed or as filled from a bet's proof. */
interface PasteValues {
  betId: string;
  serverSeed: string;
  clientSeed: string;
  nonce: string;
  kind: 'case' | 'upgrade';
  tableHash: string;
  numerator: string;
  denominator: string;
}

const EMPTY_VALUES: PasteValues = {
  betId: '',
  serverSeed: '',
  clientSeed: '',
  nonce: '0',
  kind: 'case',
  tableHash: '',
  numerator: '',
  denominator: '',
};

/** The form's values for a bet: its seeds, nonce, and its table hash or its chance. */
function valuesOf(bet: BetProof): PasteValues {
  return {
    betId: bet.betId,
    serverSeed: bet.serverSeed ?? '',
    clientSeed: bet.clientSeed,
    nonce: String(bet.nonce),
    // a wheel spin rolls against its prize table exactly as an opening does against its case's
    kind: bet.kind === 'upgrade' ? 'upgrade' : 'case',
    tableHash: bet.kind === 'upgrade' ? '' : (bet.weightTable?.hash ?? ''),
    numerator: bet.kind === 'upgrade' ? bet.chanceNumerator : '',
    denominator: bet.kind === 'upgrade' ? bet.chanceDenominator : '',
  };
}

/** Paste seeds and a case's table hash or an upgrade's chance, and see the roll computed step by step. */
function PasteForm({ initial }: { initial: PasteValues }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<PasteValues>(initial);
  const { serverSeed, clientSeed, nonce, kind, tableHash, numerator, denominator } = values;
  const set = (patch: Partial<PasteValues>) => setValues((v) => ({ ...v, ...patch }));
  const [filling, setFilling] = useState<'idle' | 'busy' | 'unknown' | 'secret'>(
    initial.betId && !initial.serverSeed ? 'secret' : 'idle',
  );
  const [state, setState] = useState<
    { status: 'idle' | 'busy' } | { status: 'error' } | { status: 'done'; game: Game; result: Computation }
  >({ status: 'idle' });

  // fills every field from a bet's public proof: its seeds, its nonce, its table hash or its chance
  const fill = async () => {
    const id = values.betId.trim();
    if (!BET_ID.test(id)) {
      setFilling('unknown');
      return;
    }
    setFilling('busy');
    try {
      const bet = await fetchPublicBet(id);
      setValues(valuesOf(bet));
      setState({ status: 'idle' });
      setFilling(bet.serverSeed ? 'idle' : 'secret');
    } catch {
      setFilling('unknown');
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ status: 'busy' });
    try {
      const n = Number(nonce);
      let game: Game;
      if (kind === 'case') {
        const table = await fetchWeightTable(tableHash.trim());
        game = { kind: 'case', table, totalWeight: 0 };
      } else {
        if (!/^\d+$/.test(numerator.trim()) || !/^[1-9]\d*$/.test(denominator.trim()))
          throw new Error('chance');
        game = { kind: 'upgrade', numerator: numerator.trim(), denominator: denominator.trim() };
      }
      const result = await compute(serverSeed.trim(), clientSeed, n, game);
      setState({ status: 'done', game, result });
    } catch {
      setState({ status: 'error' });
    }
  };

  return (
    <section className="verify-card" aria-labelledby="verify-form-title">
      <h2 id="verify-form-title" className="verify-card__title">
        {t('verify.formTitle')}
      </h2>
      <div className="verify-form verify-fill-row">
        <label>
          {t('proofs.fillLabel')}
          <input
            name="betId"
            value={values.betId}
            onChange={(e) => set({ betId: e.target.value })}
            spellCheck={false}
            autoComplete="off"
            data-testid="verify-fill-id"
          />
        </label>
        <button
          type="button"
          className="verify-fill"
          disabled={filling === 'busy' || values.betId.trim() === ''}
          onClick={() => void fill()}
          data-testid="verify-fill"
        >
          {t('proofs.fill')}
        </button>
        {filling === 'unknown' && (
          <p className="verify-bad" role="alert">
            {t('verify.notFound')}
          </p>
        )}
        {filling === 'secret' && (
          <p className="verify-note" data-testid="verify-fill-secret">
            {t('verify.unrevealed')}
          </p>
        )}
      </div>
      <form className="verify-form" onSubmit={(e) => void onSubmit(e)}>
        <label>
          {t('verify.serverSeed')}
          <input
            name="serverSeed"
            value={serverSeed}
            onChange={(e) => set({ serverSeed: e.target.value })}
            required
          />
        </label>
        <label>
          {t('verify.clientSeed')}
          <input
            name="clientSeed"
            value={clientSeed}
            onChange={(e) => set({ clientSeed: e.target.value })}
            required
          />
        </label>
        <label>
          {t('verify.nonce')}
          <input
            name="nonce"
            inputMode="numeric"
            pattern="\d+"
            value={nonce}
            onChange={(e) => set({ nonce: e.target.value })}
            required
          />
        </label>
        <fieldset className="verify-kind">
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === 'case'}
              onChange={() => set({ kind: 'case' })}
            />
            {t('verify.kindCase')}
          </label>
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === 'upgrade'}
              onChange={() => set({ kind: 'upgrade' })}
            />
            {t('verify.kindUpgrade')}
          </label>
        </fieldset>
        {kind === 'case' ? (
          <label>
            {t('verify.tableHash')}
            <input
              name="tableHash"
              value={tableHash}
              onChange={(e) => set({ tableHash: e.target.value })}
              required
            />
          </label>
        ) : (
          <>
            <label>
              {t('verify.numerator')}
              <input
                name="numerator"
                value={numerator}
                onChange={(e) => set({ numerator: e.target.value })}
                required
              />
            </label>
            <label>
              {t('verify.denominator')}
              <input
                name="denominator"
                value={denominator}
                onChange={(e) => set({ denominator: e.target.value })}
                required
              />
            </label>
          </>
        )}
        <button type="submit" className="verify-submit" disabled={state.status === 'busy'}>
          {t('verify.compute')}
        </button>
      </form>
      {state.status === 'error' && <p className="verify-bad">{t('verify.error')}</p>}
      {state.status === 'done' && (
        <div data-testid="verify-paste-result">
          <Steps result={state.result} game={state.game} />
        </div>
      )}
    </section>
  );
}

/**
 * /verify and /verify/:betId: public, no sign-in; everything is recomputed in this browser. Inside the app
 * the same proof opens at /proof/:betId (`embedded`), under the app's header with its back button.
 */
export function VerifyPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation();
  const { betId } = useParams();
  // "fill the form from this bet": the form starts over with the bet's values
  const [filled, setFilled] = useState<{ values: PasteValues; n: number }>({ values: EMPTY_VALUES, n: 0 });
  const onFill = (bet: BetProof) => {
    setFilled((f) => ({ values: valuesOf(bet), n: f.n + 1 }));
    requestAnimationFrame(() =>
      document.getElementById('verify-form-title')?.scrollIntoView({ block: 'start', behavior: 'smooth' }),
    );
  };
  const body = (
    <>
      {betId ? <BetVerification betId={betId} onFill={onFill} /> : null}
      <PasteForm key={filled.n} initial={filled.values} />
    </>
  );
  if (embedded) {
    return (
      <section className="screen verify-page verify-page--embedded" data-testid="proof-page">
        <h1 className="screen__title">{t('verify.title')}</h1>
        {body}
        {betId ? (
          <a className="verify-share" href={`/verify/${betId}`} data-testid="proof-public-link">
            {t('proofs.publicLink')}
          </a>
        ) : null}
      </section>
    );
  }
  return (
    <main className="verify-page">
      <header className="verify-page__header">
        <h1>{t('verify.title')}</h1>
        <p>{t('verify.intro')}</p>
        <nav className="verify-page__nav">
          <Link to="/" data-testid="verify-home">
            {t('verify.home')}
          </Link>
          {betId ? <Link to="/verify">{t('verify.formLink')}</Link> : null}
        </nav>
      </header>
      {body}
    </main>
  );
}

/** The name of a weight table's entry in the interface language (the catalogue's, else the table's own). */
function useEntryName(game: Game): (itemId: string, name: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const russian = i18n.resolvedLanguage === 'ru';
  const table = game.kind === 'case' ? game.table : null;
  return (itemId, name) => {
    const entry = table?.entries.find((e) => e.itemId === itemId);
    if (russian && entry?.nameRu) return entry.nameRu;
    return itemName({ id: itemId, name: name ?? itemId });
  };
}

/** A weight table's hash with a copy button. */
function CopyHash({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <span className="verify-hash">
      <code className="verify-mono" data-testid="verify-table-hash">
        {hash}
      </code>
      <button
        type="button"
        className="verify-copy"
        onClick={() => void copyText(hash).then(setCopied)}
        data-testid="verify-table-hash-copy"
      >
        {copied ? t('proofs.copied') : t('proofs.copy')}
      </button>
    </span>
  );
}
