/** One measured figure. `baseline` and `ratio` compare against a baseline run in the same process or page. */
export interface BenchRecord {
  name: string;
  metric: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
}

/** A benchmark module exports `run`; bench/run.ts discovers files named *.bench.ts. */
export type BenchModule = { run: (args: BenchArgs) => Promise<BenchRecord[]> };

export interface BenchArgs {
  /** Smaller inputs for a quick smoke run (`npm run bench -- --quick`). */
  quick: boolean;
}
