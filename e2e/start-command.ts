// The command an e2e server starts with, as `npm start` runs: a fresh SQLite file, the committed
// migrations applied, then the production server as `npm start` runs it (scripts/start.mjs).
export function startCommand(databaseFile: string, port: number): string {
  return `node -e "require('fs').rmSync('${databaseFile}',{force:true})" && node scripts/db.mjs migrate && node scripts/start.mjs -p ${port} -H 127.0.0.1`;
}
