import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

import { createMailMetrics, type MailMetrics } from './mail-metrics.js';

export interface RunMetrics extends MailMetrics {
    finished: Counter<'status'>;
    emailsSent: Counter;
    running: Gauge;
    waitingForSlot: Gauge;
    pickup: Histogram;
}

/** The worker's figures on GET /metrics (of processes that serve HTTP: roles all and api). */
export const createRunMetrics = (registry: Registry, slotWaiters: () => number = () => 0): RunMetrics => ({
    ...createMailMetrics(registry),
    finished: new Counter({ name: 'flowctl_runs_finished_total', help: 'Runs this process finished, by final status', labelNames: ['status'], registers: [registry] }),
    emailsSent: new Counter({ name: 'flowctl_run_emails_sent_total', help: 'E-mails of OUTPUT nodes accepted by the mail transport', registers: [registry] }),
    running: new Gauge({ name: 'flowctl_runs_running', help: 'Runs executing in this process now', registers: [registry] }),
    // Above zero only while every run slot is taken: how many runs are held back by the others computing.
    waitingForSlot: new Gauge({
        name: 'flowctl_runs_waiting_for_slot',
        help: 'Runs of this process ready to compute but waiting for a run slot (RUN_CONCURRENCY)',
        registers: [registry],
        collect() {
            this.set(slotWaiters());
        }
    }),
    pickup: new Histogram({
        name: 'flowctl_run_pickup_seconds',
        help: 'From enqueue to RUNNING, by the database clock',
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300],
        registers: [registry]
    })
});
