// The command an e2e server starts with, as `npm start` runs: a fresh SQLite file, the committed
// migrations applied, then the production server with its preloads (package.json, "start").
export function startCommand(databaseFile: string, port: number): string {
  return `node -e "require('fs').rmSync('${databaseFile}',{force:true})" && node scripts/db.mjs migrate && node --import ./scripts/http-timeouts.mjs --import ./scripts/compile-cache.mjs node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`;
}
