// The operators' view (GET /metrics, Prometheus text format) with prom-client: one registry per
// application (tests build many in one process). Counters and the histogram are fed by the
// runtime; gauges read their value when scraped. Per process: Prometheus sums the processes.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** First-delta buckets in seconds: the spec's goals sit between 0.3 and 2 s. */
const FIRST_DELTA_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

export interface MetricsSources {
  openConversations(): number;
  ingestionQueueDepth(): Promise<number>;
}

export class Metrics {
  readonly registry = new Registry();
  readonly turns = new Counter({
    name: 'parla_turns_total',
    help: 'Replies finished (interrupted ones included).',
    registers: [this.registry],
  });
  readonly firstDelta = new Histogram({
    name: 'parla_first_delta_seconds',
    help: "Time from the user's message to the reply's first delta.",
    buckets: FIRST_DELTA_BUCKETS,
    registers: [this.registry],
  });
  readonly outboundFailures = new Counter({
    name: 'parla_outbound_failures_total',
    help: 'Replies a provider failed to give, per provider (the engine kind).',
    labelNames: ['provider'],
    registers: [this.registry],
  });

  constructor(sources: MetricsSources, opts: { processMetrics?: boolean } = {}) {
    new Gauge({
      name: 'parla_open_conversations',
      help: 'Conversations open on this process.',
      registers: [this.registry],
      collect() {
        this.set(sources.openConversations());
      },
    });
    new Gauge({
      name: 'parla_ingestion_queue_depth',
      help: 'Knowledge items waiting to be ingested (all processes: one queue in the database).',
      registers: [this.registry],
      async collect() {
        this.set(await sources.ingestionQueueDepth());
      },
    });
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'parla_' });
  }

  /** One finished reply. */
  turn(t: { firstDeltaMs: number | null; failed?: boolean; provider: string }): void {
    this.turns.inc();
    if (t.firstDeltaMs !== null) this.firstDelta.observe(t.firstDeltaMs / 1000);
    if (t.failed) this.outboundFailures.inc({ provider: t.provider });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
