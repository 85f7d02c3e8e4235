import type * as Hapi from '@hapi/hapi';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One registry per app, not prom-client's global one, so several apps in one process (tests) do not
 * collide. The run worker adds its own metrics to the same registry through ctx.metrics.
 */
export const createMetricsRegistry = (): Registry => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    return registry;
};

/**
 * Labelled by the route's path template (`/api/workflows/{workflowId}`), never the raw path: ids in
 * label values would make a new time series per resource. Unmatched paths all count as `/{p*}`.
 */
export const registerHttpMetrics = (server: Hapi.Server, registry: Registry): void => {
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
        name: 'flowctl_http_requests_total',
        help: 'HTTP requests answered, by method, route template and status code',
        labelNames,
        registers: [registry]
    });
    const duration = new Histogram({
        name: 'flowctl_http_request_duration_seconds',
        help: 'Time from receiving a request to finishing its response, by method, route template and status code',
        labelNames,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry]
    });

    server.events.on('response', (request) => {
        const response = request.response as (Hapi.ResponseObject & { isBoom?: false }) | (Error & { isBoom: true; output: { statusCode: number } }) | null;
        const statusCode = response ? (response.isBoom ? response.output.statusCode : response.statusCode) : 0;
        const labels = { method: request.method.toUpperCase(), route: request.route.path, status_code: String(statusCode) };
        requests.inc(labels);
        duration.observe(labels, ((request.info.responded || Date.now()) - request.info.received) / 1000);
    });
};
