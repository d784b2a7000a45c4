import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  RawServerDefault,
  FastifyBaseLogger,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
} from 'fastify';
import type { Config } from './config.ts';
import type { Db, OpenedDatabase } from './db/index.ts';
import type { TokenService } from './auth/tokens.ts';
import type { EventBus } from './realtime/bus.ts';

/** What every route module gets: configuration, the database and the services built at start. */
export interface AppContext {
  config: Config;
  db: Db;
  database: OpenedDatabase;
  tokens: TokenService;
  /** the bot token in use: the configured one, or the generated demo one */
  botToken: string;
  /** true when no BOT_TOKEN is configured: demo sign-in and demo balance are on */
  demo: boolean;
  /** publish/subscribe across instances (Postgres LISTEN/NOTIFY; in-process on PGlite) */
  bus: EventBus;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the requireUser hook: the signed-in Telegram user id */
    userId: bigint;
  }
}
