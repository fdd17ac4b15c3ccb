// The shape of bench/results.json: per database under each item, and the top-level
// names (`streamOverhead.{ttft,total}.ratio`, `reopen.ratio`) holding SQLite's figure, the
// product's default database.
import type { ApprovalRoundTrip } from '../measure/approval';
import type { Concurrency } from '../measure/concurrency';
import type { Fanout } from '../measure/fanout';
import type { Flood } from '../measure/flood';
import type { InProcessRow } from '../measure/in-process';
import type { Memory } from '../measure/memory';
import type { Reopen } from '../measure/reopen';
import type { ScaleOut } from '../measure/scale-out';
import type { SetupCost } from '../measure/setup-cost';
import type { Side, StreamOverhead } from '../measure/stream-overhead';
import type { WritesPerTurn } from '../measure/writes-per-turn';
import type { BenchMode } from './mode';
import type { DatabaseKind } from './servers';

export type PerDatabase<T> = Partial<Record<DatabaseKind, T>>;

/** What one database's server and store measured. */
export interface DatabaseFigures {
  streamOverhead: StreamOverhead;
  writesPerTurn: WritesPerTurn;
  reopen: Reopen;
  concurrency: Concurrency;
  approvalRoundTrip: ApprovalRoundTrip;
  memory: Memory;
  fanout: Fanout;
  setupCost: SetupCost;
  flood: Flood;
}

export interface Goal {
  goal: string;
  database: DatabaseKind;
  target: string;
  measured: string;
  met: boolean;
}

export interface Results {
  mode: BenchMode;
  date: string;
  durationSeconds: number;
  machine: { cpu: string; cores: number; memoryGB: number; os: string };
  node: string;
  databases: DatabaseKind[];
  postgresSkipped: string | null;
  streamOverhead: {
    tokens: number;
    runs: number;
    ttft: Side & PerDatabase<Side>;
    total: Side & PerDatabase<Side>;
    inProcess: { tokens: number; turns: number; rows: InProcessRow[] };
  };
  writesPerTurn: PerDatabase<WritesPerTurn>;
  reopen: Reopen & PerDatabase<Reopen>;
  concurrency: PerDatabase<Concurrency>;
  approvalRoundTrip: PerDatabase<ApprovalRoundTrip>;
  memory: PerDatabase<Memory>;
  fanout: PerDatabase<Fanout>;
  setupCost: PerDatabase<SetupCost>;
  flood: PerDatabase<Flood>;
  /** PostgreSQL only; null when it was skipped. */
  scaleOut: ScaleOut | null;
  goals: Goal[];
}
