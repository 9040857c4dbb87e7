import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry per running app (tests run several in one process). Request
 * figures are labelled by route template, never by raw URL, so ids do not explode the series count.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'drawbridge_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'drawbridge_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'drawbridge_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit: per token (API, MCP) or per client address (public routes)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  private readonly queueDepth = new Gauge({
    name: 'drawbridge_job_queue_depth',
    help: 'Heavy jobs (parse, layout, render, export) waiting for a worker thread',
    registers: [this.registry],
  });
  private readonly jobs = new Histogram({
    name: 'drawbridge_job_duration_seconds',
    help: 'Time a heavy job ran in its worker, by kind and outcome (ok, failed, over_time, over_memory)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'drawbridge_' });
  }

  recordRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status });
    this.latency.observe({ route, method }, seconds);
  }

  recordRefusal(limit: 'token' | 'address'): void {
    this.refusals.inc({ limit });
  }

  recordJob(kind: string, outcome: 'ok' | 'failed' | 'over_time' | 'over_memory', seconds: number): void {
    this.jobs.observe({ kind, outcome }, seconds);
  }

  setQueueDepth(depth: number): void {
    this.queueDepth.set(depth);
  }
}
