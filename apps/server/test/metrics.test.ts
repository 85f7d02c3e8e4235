import Hapi from '@hapi/hapi';
import { Counter } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMetricsRegistry, registerHttpMetrics } from '../src/http/metrics.js';
import { startTestServer, type TestServer } from './harness.js';

describe('GET /metrics', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
        // A route with a path parameter, to see that ids never become label values.
        t.app.server!.route({ method: 'GET', path: '/test/items/{id}', options: { auth: false }, handler: () => ({ ok: true }) });
    });
    afterAll(() => t.close());

    const scrape = async () => {
        const res = await fetch(`${t.url}/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return await res.text();
    };

    it('serves process metrics in Prometheus text format', async () => {
        const text = await scrape();
        expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
        expect(text).toContain('nodejs_heap_size_used_bytes');
    });

    it('counts requests by method, route template and status, never by raw path', async () => {
        await t.request({ method: 'GET', url: '/test/items/secret-id-123' });
        await t.request({ method: 'GET', url: '/test/items/secret-id-456' });
        await t.request({ method: 'GET', url: '/no/such/thing-789' });
        await t.request({ method: 'GET', url: '/api/auth/me' });

        const text = await scrape();
        expect(text).toContain('flowctl_http_requests_total{method="GET",route="/test/items/{id}",status_code="200"} 2');
        expect(text).toContain('flowctl_http_requests_total{method="GET",route="/{p*}",status_code="404"} 1');
        expect(text).toContain('flowctl_http_requests_total{method="GET",route="/api/auth/me",status_code="401"} 1');
        expect(text).toMatch(/flowctl_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/test\/items\/\{id\}",status_code="200"\} 2/);
        expect(text).toContain('flowctl_http_request_duration_seconds_count{method="GET",route="/test/items/{id}",status_code="200"} 2');
        expect(text).not.toContain('secret-id');
        expect(text).not.toContain('thing-789');
    });

    it('lets other parts (the run worker) add metrics to the app registry', async () => {
        const runs = new Counter({ name: 'flowctl_test_runs_total', help: 'test', registers: [t.app.ctx.metrics] });
        runs.inc(3);
        expect(await scrape()).toContain('flowctl_test_runs_total 3');
    });

    it('keeps apps in one process apart', async () => {
        const servers = [Hapi.server(), Hapi.server()];
        const registries = servers.map(() => createMetricsRegistry());
        servers.forEach((server, i) => {
            registerHttpMetrics(server, registries[i]!);
            server.route({ method: 'GET', path: '/x', handler: () => 'x' });
        });
        await servers[0]!.inject('/x');
        expect(await registries[0]!.metrics()).toContain('flowctl_http_requests_total{method="GET",route="/x",status_code="200"} 1');
        expect(await registries[1]!.metrics()).not.toContain('route="/x"');
    });
});
