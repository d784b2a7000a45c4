import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Db } from '../db/index.ts';
import type { EventBus } from '../realtime/bus.ts';
import { findCase, listCases } from './cases.ts';

/**
 * The case catalogue from memory. `GET /api/cases` and `GET /api/cases/:id` are the first request of every
 * start, and the catalogue changes only when it is seeded (at start, with the configured RTP) or reloaded by
 * the operator, so each answer is built once: serialized, hashed into an ETag and compressed (brotli, gzip)
 * ahead of time, and served from memory until the catalogue changes.
 *
 * A change is announced on the bus channel `catalogue`; every instance (on Postgres through LISTEN/NOTIFY)
 * then drops what it keeps and rebuilds on the next request. The ETag is a hash of the answer's text, so
 * instances holding the same catalogue hand out the same ETag and a revalidation works against any of them.
 */

/** The bus channel that says "the catalogue in the database changed". */
const CATALOGUE_CHANNEL = 'catalogue';

/** Tells every instance (this one included) to drop its cached catalogue. */
export async function announceCatalogueChange(bus: EventBus, reason: string): Promise<void> {
  await bus.publish(CATALOGUE_CHANNEL, { reason });
}

/** One cached answer: its JSON text and the same bytes compressed, with the ETag all of them share. */
export interface CachedBody {
  /** a weak validator (W/"..."): the encodings differ in bytes, not in meaning */
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function cacheBody(value: unknown): Promise<CachedBody> {
  const identity = Buffer.from(JSON.stringify(value), 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const [br, gz] = await Promise.all([
    // built once per change, so the strongest settings are affordable
    brotli(identity, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipAsync(identity, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  return { etag: `W/"${hash}"`, identity, br, gzip: gz };
}

/** Whether an If-None-Match header matches the ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}

export class CatalogueCache {
  private list: Promise<CachedBody> | null = null;
  private readonly byId = new Map<string, Promise<CachedBody | null>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    bus: EventBus,
  ) {
    this.unsubscribe = bus.subscribe(CATALOGUE_CHANNEL, () => this.invalidate());
  }

  /** The answer of GET /cases. */
  cases(): Promise<CachedBody> {
    if (!this.list) {
      const built = listCases(this.db).then((cases) => cacheBody({ cases }));
      this.list = built;
      built.catch(() => {
        // a failed read is not kept: the next request tries again
        if (this.list === built) this.list = null;
      });
    }
    return this.list;
  }

  /** The answer of GET /cases/:id, or null when there is no such case. */
  case(id: string): Promise<CachedBody | null> {
    let entry = this.byId.get(id);
    if (!entry) {
      const built = findCase(this.db, id).then((found) => (found ? cacheBody({ case: found }) : null));
      entry = built;
      this.byId.set(id, built);
      const forget = () => {
        if (this.byId.get(id) === built) this.byId.delete(id);
      };
      // unknown ids are not remembered (anyone could fill memory with them), nor are failures
      built.then((body) => body ?? forget(), forget);
    }
    return entry;
  }

  /** Drops everything kept; a build still running when this is called is not kept either. */
  invalidate(): void {
    this.list = null;
    this.byId.clear();
  }

  close(): void {
    this.unsubscribe();
    this.invalidate();
  }
}
