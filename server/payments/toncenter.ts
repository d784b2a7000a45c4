/**
 * The slice of toncenter's API v3 the TON watcher reads: GET /transactions of one account.
 *
 * Query: account (any address form), start_lt (lt >= start_lt) or start_utime (now >= start_utime), limit
 * (1..1000), offset, sort (asc|desc). Answer: {transactions: Transaction[], address_book: {raw: {...}}}.
 * Authentication: the X-Api-Key header (optional; without a key the public rate limit is about 1 rps).
 */

export interface ToncenterMessage {
  hash?: string;
  /** raw address ("0:ABC..."), null for external messages */
  source: string | null;
  destination: string | null;
  /** nanoTON as a decimal string; null for external messages */
  value: string | null;
  bounce?: boolean | null;
  bounced?: boolean | null;
  opcode?: number | string | null;
  message_content?: {
    hash?: string;
    /** base64 BOC of the body */
    body?: string | null;
    /** decoded body when toncenter recognises it, e.g. {type: 'text_comment', comment: '...'} */
    decoded?: { type?: string; comment?: string } | null;
  } | null;
}

export interface ToncenterTransaction {
  account: string;
  /** base64 (or hex) of the 32-byte transaction hash */
  hash: string;
  /** logical time, a decimal string */
  lt: string;
  /** unix time of the transaction */
  now: number;
  description?: {
    aborted?: boolean;
    compute_ph?: { success?: boolean; skipped?: boolean; exit_code?: number } | null;
  } | null;
  in_msg: ToncenterMessage | null;
  out_msgs: ToncenterMessage[];
}

export interface TransactionsPage {
  transactions: ToncenterTransaction[];
  address_book?: Record<string, { user_friendly?: string }>;
}

export type TransactionsQuery = {
  account: string;
  limit: number;
  sort: 'asc' | 'desc';
} & ({ startLt: bigint } | { startUtime: number });

/** A failed toncenter request; `retryAfterMs` when the server said how long to wait (429). */
export class ToncenterError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ToncenterError';
  }

  get rateLimited(): boolean {
    return this.status === 429;
  }
}

export interface ToncenterOptions {
  /** base URL, e.g. https://toncenter.com/api/v3 */
  url: string;
  apiKey: string | null;
  timeoutMs?: number;
}

export async function fetchTransactions(
  options: ToncenterOptions,
  query: TransactionsQuery,
  signal?: AbortSignal,
): Promise<TransactionsPage> {
  const params = new URLSearchParams({
    account: query.account,
    limit: String(query.limit),
    sort: query.sort,
  });
  if ('startLt' in query) params.set('start_lt', query.startLt.toString());
  else params.set('start_utime', String(query.startUtime));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  let res: Response;
  try {
    res = await fetch(`${options.url}/transactions?${params}`, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    throw new ToncenterError(`toncenter unreachable: ${(err as Error).message}`, null);
  }
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('retry-after'));
    await res.body?.cancel().catch(() => {});
    throw new ToncenterError(
      `toncenter answered ${res.status}`,
      res.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    );
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ToncenterError('toncenter answered something that is not JSON', res.status);
  }
  const page = body as Partial<TransactionsPage>;
  if (!page || !Array.isArray(page.transactions)) {
    throw new ToncenterError('toncenter answer has no transactions list', res.status);
  }
  // each transaction is checked by the watcher, one by one: a malformed one is skipped, never the page
  return page as TransactionsPage;
}
