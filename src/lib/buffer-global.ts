import { Buffer } from 'buffer';

// @ton/core expects Node's global Buffer; browsers have none. Import this module before @ton/core.
const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;
