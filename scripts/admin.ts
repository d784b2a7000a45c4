// The operator's command line: npm run admin -- withdrawals list|complete <id>|fail <id>, catalogue reload (see server/admin-cli.ts).
import { ConfigError, loadConfig, type Config } from '../server/config.ts';
import { ADMIN_USAGE, runAdmin } from '../server/admin-cli.ts';

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(ADMIN_USAGE);
  process.exit(args.length === 0 ? 2 : 0);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
const code = await runAdmin(args, config, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exit(code);
