/**
 * Group commit of one statement: the inputs handed in while `inFlight` statements run wait and share
 * the next one, so a busy node runs fewer, larger statements and an idle one waits for none but the
 * current event-loop turn (docs/BENCHMARKS.md, store19 and fold19). A shared statement that fails is
 * tried again input by input: one that cannot be run fails alone, not the others that shared it.
 */
export class GroupCommit<In, Out> {
  private readonly waiting: { input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }[] = [];
  private running = 0;
  private due = false;

  constructor(
    /** One statement for the inputs: each one's answer, in their order. */
    private readonly statement: (inputs: In[]) => Promise<Out[]>,
    private readonly options: { inFlight: number; maxSize: number; size: (input: In) => number },
  ) {}

  run(input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.soon();
    });
  }

  /** The next statement once this turn's inputs joined it, unless the statements in flight are at their bound (each one's end calls this again). */
  private soon(): void {
    if (this.due || this.running >= this.options.inFlight || this.waiting.length === 0) return;
    this.due = true;
    setImmediate(() => {
      this.due = false;
      void this.next();
    });
  }

  private async next(): Promise<void> {
    const taken: typeof this.waiting = [];
    // Up to maxSize (an input is never split; one larger than the bound goes alone).
    for (let n = 0; this.waiting.length && (taken.length === 0 || n + this.options.size(this.waiting[0]!.input) <= this.options.maxSize); ) {
      const w = this.waiting.shift()!;
      n += this.options.size(w.input);
      taken.push(w);
    }
    if (taken.length === 0) return;
    this.running++;
    try {
      await this.runTaken(taken);
    } finally {
      this.running--;
      this.soon();
    }
  }

  private async runTaken(taken: typeof this.waiting): Promise<void> {
    try {
      const answers = await this.statement(taken.map((w) => w.input));
      taken.forEach((w, i) => w.resolve(answers[i]!));
    } catch (err) {
      if (taken.length === 1) taken[0]!.reject(err);
      else for (const w of taken) await this.runTaken([w]);
    }
  }
}

/** One group commit per database handle (a test process runs several apps). */
export function groupCommitPerDb<Db extends object, In, Out>(make: (db: Db) => GroupCommit<In, Out>): (db: Db) => GroupCommit<In, Out> {
  const groups = new WeakMap<Db, GroupCommit<In, Out>>();
  return (db) => {
    let group = groups.get(db);
    if (!group) groups.set(db, (group = make(db)));
    return group;
  };
}
