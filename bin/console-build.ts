// `npm run console:build [dir]`: the console's files (esbuild bundle and static files) under
// <dir>/console/ (default dist/), ready for `aws s3 sync <dir>/console s3://<ConsoleBucket>/console`.
import { resolve } from 'node:path';
import { buildConsoleAssets } from '../lib/console-hosting';

const root = resolve(process.argv[2] ?? 'dist');
buildConsoleAssets(root);
console.log(`Console built in ${root}/console`);
