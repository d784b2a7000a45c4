export * from './common.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './cases.ts';
export * from './deposit.ts';
export * from './inventory.ts';
export * from './upgrade.ts';
export * from './feed.ts';
