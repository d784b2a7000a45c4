import { randomBytes } from 'node:crypto';
import { Address, beginCell } from '@ton/core';
import { sendJson, startHttp, type RecordedRequest } from './http.ts';

/**
 * A local stand-in for toncenter's API v3, GET /api/v3/transactions, in its documented format:
 * query account (any address form, repeatable), start_lt / end_lt (inclusive), start_utime / end_utime,
 * limit (default 10, max 1000), offset, sort (default desc); answer {transactions, address_book}; an API key,
 * when the stand-in requires one, in the X-Api-Key header or the api_key query parameter.
 * Transactions are whatever the test put on its "chain"; every poll sees all that match, so a test can
 * show the same transaction to the watcher again and again.
 */
export interface ToncenterStandIn {
  /** API base, like https://toncenter.com/api/v3 */
  url: string;
  /** the chain: transactions of any account, in any order */
  transactions: TxJson[];
  requests: RecordedRequest[];
  /** the next n requests to /transactions are answered with this status (429: toncenter's rate limit) */
  failNext(status: number, n?: number): void;
  /** when true, the lt and time filters are ignored: every poll sees every transaction again */
  replayEverything: boolean;
  /** requests to /transactions that were answered 200 */
  answered(): number;
  close(): Promise<void>;
}

export async function startToncenter(options: { apiKey?: string } = {}): Promise<ToncenterStandIn> {
  const transactions: TxJson[] = [];
  const failures: number[] = [];
  let answered = 0;
  const state = { replayEverything: false };
  const http = await startHttp((req, res) => {
    if (req.method !== 'GET' || req.path !== '/api/v3/transactions') {
      sendJson(res, 404, { error: 'not found' });
      return;
    }
    const key = req.headers['x-api-key'] ?? req.query.get('api_key');
    if (options.apiKey && key !== options.apiKey) {
      sendJson(res, 401, { error: 'API key does not exist' });
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      sendJson(
        res,
        failure,
        failure === 429 ? { error: 'Ratelimit exceed', code: 429 } : { error: 'upstream' },
      );
      return;
    }
    const q = req.query;
    const limit = q.has('limit') ? Number(q.get('limit')) : 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      sendJson(res, 422, { error: 'limit must be in 1..1000' });
      return;
    }
    const offset = Number(q.get('offset') ?? 0);
    const accounts = q.getAll('account').map((a) => Address.parse(a));
    const num = (name: string) => (q.has(name) ? BigInt(q.get(name)!) : null);
    const [startLt, endLt, startUtime, endUtime] = ['start_lt', 'end_lt', 'start_utime', 'end_utime'].map(
      num,
    );
    const matching = transactions.filter((tx) => {
      const lt = BigInt(tx.lt);
      if (accounts.length && !accounts.some((a) => a.equals(Address.parse(tx.account)))) return false;
      if (state.replayEverything) return true;
      if (startLt !== null && lt < startLt!) return false;
      if (endLt !== null && lt > endLt!) return false;
      if (startUtime !== null && BigInt(tx.now) < startUtime!) return false;
      if (endUtime !== null && BigInt(tx.now) > endUtime!) return false;
      return true;
    });
    const dir = q.get('sort') === 'asc' ? 1 : -1;
    matching.sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -dir : BigInt(a.lt) > BigInt(b.lt) ? dir : 0));
    const page = matching.slice(offset, offset + limit);
    const addressBook: Record<string, { user_friendly: string; domain: null }> = {};
    for (const tx of page) {
      for (const a of [tx.account, tx.in_msg?.source, tx.in_msg?.destination]) {
        if (a) addressBook[a] = { user_friendly: Address.parse(a).toString(), domain: null };
      }
    }
    answered++;
    sendJson(res, 200, { transactions: page, address_book: addressBook });
  });
  return {
    url: `${http.origin}/api/v3`,
    transactions,
    requests: http.requests,
    get replayEverything() {
      return state.replayEverything;
    },
    set replayEverything(on: boolean) {
      state.replayEverything = on;
    },
    answered: () => answered,
    failNext(status, n = 1) {
      for (let i = 0; i < n; i++) failures.push(status);
    },
    close: http.close,
  };
}

// ── transactions in toncenter's v3 JSON shape ────────────────────────────────────────────────────────

interface MsgJson {
  hash: string;
  source: string | null;
  destination: string | null;
  value: string | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  created_lt: string | null;
  created_at: string | null;
  opcode: string | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  message_content: {
    hash: string;
    body: string;
    decoded: { type: string; comment: string } | null;
  } | null;
  init_state: null;
}

export interface TxJson {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  trace_id: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  orig_status: string;
  end_status: string;
  total_fees: string;
  description: {
    type: string;
    aborted: boolean;
    destroyed: boolean;
    credit_first: boolean;
    compute_ph: { skipped: boolean; success: boolean; exit_code: number };
    action: { success: boolean; valid: boolean; msgs_created: number };
  };
  block_ref: { workchain: number; shard: string; seqno: number };
  in_msg: MsgJson | null;
  out_msgs: MsgJson[];
}

const b64 = (n = 32) => randomBytes(n).toString('base64');
/** toncenter writes raw addresses with upper-case hex */
const raw = (a: Address) => a.toRawString().toUpperCase();

export interface TransferOptions {
  /** the receiving wallet */
  to: Address;
  from?: Address;
  lt: bigint | number;
  /** nanoTON */
  value: bigint | string;
  /** a text comment, or null for a plain transfer */
  comment: string | null;
  /** unix time; now by default */
  now?: number;
  bounced?: boolean;
  /** the wallet sent something back (a bounce of the incoming message, say) */
  withOutMessage?: boolean;
  aborted?: boolean;
  /** false: toncenter did not decode the body (the watcher must read the cell itself) */
  decoded?: boolean;
  hash?: string;
}

/** An incoming transfer transaction of `to`, as toncenter v3 lists it. */
export function transferTx(o: TransferOptions): TxJson {
  const from = o.from ?? new Address(0, randomBytes(32));
  const lt = BigInt(o.lt);
  const value = o.value.toString();
  const body =
    o.comment === null
      ? beginCell().endCell()
      : beginCell().storeUint(0, 32).storeStringTail(o.comment).endCell();
  const inMsg: MsgJson = {
    hash: b64(),
    source: raw(from),
    destination: raw(o.to),
    value,
    fwd_fee: '266669',
    ihr_fee: '0',
    created_lt: (lt - 1n).toString(),
    created_at: String(o.now ?? Math.floor(Date.now() / 1000)),
    opcode: o.comment === null ? null : '0x00000000',
    ihr_disabled: true,
    bounce: true,
    bounced: o.bounced ?? false,
    import_fee: null,
    message_content: {
      hash: body.hash().toString('base64'),
      body: body.toBoc().toString('base64'),
      decoded:
        o.comment !== null && o.decoded !== false ? { type: 'text_comment', comment: o.comment } : null,
    },
    init_state: null,
  };
  const outMsgs: MsgJson[] = o.withOutMessage
    ? [
        {
          ...inMsg,
          hash: b64(),
          source: raw(o.to),
          destination: raw(from),
          bounced: false,
          message_content: null,
        },
      ]
    : [];
  return {
    account: raw(o.to),
    hash: o.hash ?? b64(),
    lt: lt.toString(),
    now: o.now ?? Math.floor(Date.now() / 1000),
    mc_block_seqno: 40_000_000,
    trace_id: b64(),
    prev_trans_hash: b64(),
    prev_trans_lt: (lt - 1000n).toString(),
    orig_status: 'active',
    end_status: 'active',
    total_fees: '400000',
    description: {
      type: 'ord',
      aborted: o.aborted ?? false,
      destroyed: false,
      credit_first: false,
      compute_ph: { skipped: false, success: !o.aborted, exit_code: o.aborted ? 33 : 0 },
      action: { success: true, valid: true, msgs_created: outMsgs.length },
    },
    block_ref: { workchain: 0, shard: '8000000000000000', seqno: 50_000_000 },
    in_msg: inMsg,
    out_msgs: outMsgs,
  };
}
