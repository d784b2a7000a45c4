import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { TWO_POW_52 } from '../../lib/fair';
import { fetchWeightTable, publicBetAtom, publicBetCheckAtom } from './queries';
import { compute, type Computation, type Game } from './recompute';
import './verify.css';

function Steps({ result, game }: { result: Computation; game: Game }) {
  const { t } = useTranslation();
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
            {(steps.roll / TWO_POW_52).toFixed(8)} {result.success ? '<' : '≥'}{' '}
            {(Number(game.numerator) / Number(game.denominator)).toFixed(8)})
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
                {row.name ?? row.itemId}
                {i === result.picked ? ` ← ${t('verify.picked')}` : ''}
              </li>
            ))}
          </ul>
          <span data-testid="verify-outcome">
            {result.picked !== null
              ? (result.walk[result.picked]!.name ?? result.walk[result.picked]!.itemId)
              : ''}
          </span>
        </li>
      ) : null}
    </ol>
  );
}

/** The proof of one bet by its public id, recomputed here. */
function BetVerification({ betId }: { betId: string }) {
  const { t } = useTranslation();
  const proof = useAtomValue(publicBetAtom(betId));
  const bet = proof.data;
  const check = useAtomValue(publicBetCheckAtom(betId));

  if (proof.isPending) return <div className="verify-card" aria-busy="true" />;
  if (proof.isError || !bet) return <p className="verify-card verify-bad">{t('verify.notFound')}</p>;

  return (
    <section className="verify-card" data-testid="verify-bet">
      <h2 className="verify-card__title">
        {bet.kind === 'case'
          ? t('verify.caseBet', { name: bet.case.name })
          : bet.kind === 'wheel'
            ? t('retention.verifyWheel')
            : t('verify.upgradeBet', { stake: bet.stake.name, target: bet.target.name })}
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
            ? `${bet.item.name} (roll ${bet.roll} / ${bet.totalWeight})`
            : bet.kind === 'wheel'
              ? `${t('retention.verifySegment', { segment: bet.segment + 1, prize: bet.weightTable.entries[bet.segment]?.itemId ?? '' })} (roll ${bet.roll} / ${bet.totalWeight})`
              : `${bet.success ? t('verify.success') : t('verify.fail')} (${bet.rolled} vs ${bet.chanceNumerator}/${bet.chanceDenominator})`}
        </dd>
      </dl>
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

/** Paste seeds and a case's table hash or an upgrade's chance, and see the roll computed step by step. */
function PasteForm() {
  const { t } = useTranslation();
  const [serverSeed, setServerSeed] = useState('');
  const [clientSeed, setClientSeed] = useState('');
  const [nonce, setNonce] = useState('0');
  const [kind, setKind] = useState<'case' | 'upgrade'>('case');
  const [tableHash, setTableHash] = useState('');
  const [numerator, setNumerator] = useState('');
  const [denominator, setDenominator] = useState('');
  const [state, setState] = useState<
    { status: 'idle' | 'busy' } | { status: 'error' } | { status: 'done'; game: Game; result: Computation }
  >({ status: 'idle' });

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
      <form className="verify-form" onSubmit={(e) => void onSubmit(e)}>
        <label>
          {t('verify.serverSeed')}
          <input
            name="serverSeed"
            value={serverSeed}
            onChange={(e) => setServerSeed(e.target.value)}
            required
          />
        </label>
        <label>
          {t('verify.clientSeed')}
          <input
            name="clientSeed"
            value={clientSeed}
            onChange={(e) => setClientSeed(e.target.value)}
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
            onChange={(e) => setNonce(e.target.value)}
            required
          />
        </label>
        <fieldset className="verify-kind">
          <label>
            <input type="radio" name="kind" checked={kind === 'case'} onChange={() => setKind('case')} />
            {t('verify.kindCase')}
          </label>
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === 'upgrade'}
              onChange={() => setKind('upgrade')}
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
              onChange={(e) => setTableHash(e.target.value)}
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
                onChange={(e) => setNumerator(e.target.value)}
                required
              />
            </label>
            <label>
              {t('verify.denominator')}
              <input
                name="denominator"
                value={denominator}
                onChange={(e) => setDenominator(e.target.value)}
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

/** /verify and /verify/:betId: public, no sign-in; everything is recomputed in this browser. */
export function VerifyPage() {
  const { t } = useTranslation();
  const { betId } = useParams();
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
      {betId ? <BetVerification betId={betId} /> : null}
      <PasteForm />
    </main>
  );
}
