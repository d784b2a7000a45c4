// The operator's command line: npm run admin -- withdrawals list|complete <id>|fail <id>, catalogue reload
// (see server/admin-cli.ts).
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { ADMIN_USAGE, runAdminCli } from '../server/admin-cli.ts';
import { createBus } from '../server/realtime/bus.ts';

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(ADMIN_USAGE);
  process.exit(args.length === 0 ? 2 : 0);
}

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: join(config.dataDir, 'pglite'),
});
// on Postgres the bus reaches running servers (NOTIFY), so a catalogue change shows without a restart
const bus = await createBus(database);
let code: number;
try {
  code = await runAdminCli(
    args,
    database.db,
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    { rtp: config.rtp, bus },
  );
} finally {
  await bus.close();
  await database.close();
}
process.exit(code);
