import { Type, type Static } from 'typebox';
import { Ton } from './common.ts';

export const ProfileStats = Type.Object({ openingsCount: Type.Integer({ minimum: 0 }) });
export type ProfileStats = Static<typeof ProfileStats>;

export const ProfileResponse = Type.Object({ stats: ProfileStats });
export type ProfileResponse = Static<typeof ProfileResponse>;

export const BalanceResponse = Type.Object({ balance: Ton });
export type BalanceResponse = Static<typeof BalanceResponse>;
