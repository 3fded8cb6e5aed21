// tsc does not keep the executable bit; npm links bins to this file.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/src/cli/main.js', import.meta.url), 0o755);
