import { Type, type Static } from 'typebox';
import { SafeText, Ton } from './common.ts';

export const User = Type.Object({
  /** Telegram user id; a string because it may exceed 2^53 in the future (BIGINT in the database). */
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  photoUrl: Type.Union([Type.String(), Type.Null()]),
  languageCode: Type.Union([Type.String(), Type.Null()]),
  balance: Ton,
});
export type User = Static<typeof User>;

export const LoginRequest = Type.Object(
  { initData: SafeText({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);
export type LoginRequest = Static<typeof LoginRequest>;

export const LoginResponse = Type.Object({ token: Type.String(), user: User });
export type LoginResponse = Static<typeof LoginResponse>;

export const MeResponse = Type.Object({ user: User });
export type MeResponse = Static<typeof MeResponse>;

/** GET /dev/launch-data — only in demo mode: launch data signed by the server for the demo user. */
export const DemoLaunchDataResponse = Type.Object({ initData: Type.String(), demo: Type.Literal(true) });
export type DemoLaunchDataResponse = Static<typeof DemoLaunchDataResponse>;

/** GET /config — public, unauthenticated facts the client needs before sign-in. */
export const PublicConfig = Type.Object({
  demo: Type.Boolean({ description: 'true when the server runs without a real bot token' }),
  tonconnectManifestUrl: Type.String(),
  twaReturnUrl: Type.Union([Type.String(), Type.Null()]),
  debugScenes: Type.Boolean({
    description: 'true when the debug scene switcher (/debug) is on (DEBUG_SCENES)',
  }),
});
export type PublicConfig = Static<typeof PublicConfig>;
