import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Battle } from '../../../contract/battles.ts';
import { battleHistoryAtom } from './api';
import { BattleCardSummary } from './BattleCardSummary';
import { mySeat, winningSeats } from './model';
import './battle.css';

/** The player's outcome of a battle: won or lost once finished, else the battle's status. */
function outcome(battle: Battle): 'won' | 'lost' | Battle['status'] {
  if (battle.status !== 'finished') return battle.status;
  const me = mySeat(battle);
  return me !== null && winningSeats(battle).has(me.seat) ? 'won' : 'lost';
}

/** The signed-in player's battles (GET /battles/history), each linking to its page and proof. */
export function BattleHistory() {
  const { t } = useTranslation();
  const { data: battles, isError } = useAtomValue(battleHistoryAtom);
  return (
    <section className="profile__section battle-history" aria-labelledby="battle-history-title">
      <h2 id="battle-history-title" className="battle__section-title">
        {t('battle.history')}
      </h2>
      {isError && !battles && <p className="battle__empty">{t('battle.errors.load')}</p>}
      {battles && battles.length === 0 && <p className="battle__empty">{t('battle.historyEmpty')}</p>}
      <ul className="battle__lobby" data-testid="battle-history">
        {battles?.map((battle) => {
          const result = outcome(battle);
          return (
            <li
              key={battle.id}
              className="battle__card"
              data-testid="battle-history-entry"
              data-battle={battle.id}
              data-outcome={result}
            >
              <BattleCardSummary
                battle={battle}
                status={
                  result === 'won' || result === 'lost' ? t(`battle.${result}`) : t(`battle.status.${result}`)
                }
              />
              <Link className="button button--ghost battle__join" to={`/battle/${battle.id}`}>
                {t('battle.open')}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
