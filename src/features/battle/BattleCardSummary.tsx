import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Battle } from '../../../contract/battles.ts';
import { formatTon } from '../../lib/format';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';

/**
 * A battle card's body, shared by the lobby and the profile's history: the first cases' art, then the format,
 * mode and seat cost, and a status line each list words its own way (seats taken, or the player's outcome).
 */
export function BattleCardSummary({ battle, status }: { battle: Battle; status: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="battle__card-cases">
        {battle.cases.slice(0, 5).map((c, i) => (
          <ArtImage key={i} src={c.imageUrl} className="battle__card-case" />
        ))}
        {battle.cases.length > 5 && <span>+{battle.cases.length - 5}</span>}
      </div>
      <div className="battle__card-info">
        <span className="battle__card-format">
          {battle.format} · {t(`battle.modes.${battle.mode}`)}
        </span>
        <span className="battle__card-cost">
          <TonIcon size={14} /> {formatTon(battle.cost)}
        </span>
        <span className="battle__card-seats">{status}</span>
      </div>
    </>
  );
}
