import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { cliWording } from './cli-wording.js';

const SERVER_SRC = Path.resolve(import.meta.dirname, '..', '..', '..', 'apps', 'server', 'src');

/** Routes the server's messages name that no CLI command calls, so the CLI never prints them. */
const NOT_CLI = new Set(['POST /api/auth/refresh-token']);

/** Every `METHOD /api/…` inside a string literal of the server's source (comments left out). */
const routesInServerMessages = (): Map<string, string> => {
    const found = new Map<string, string>();
    const walk = (dir: string) => {
        for (const entry of Fs.readdirSync(dir, { withFileTypes: true })) {
            const path = Path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(path);
            } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
                for (const line of Fs.readFileSync(path, 'utf8').split('\n')) {
                    if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) {
                        continue;
                    }

                    for (const literal of line.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? []) {
                        for (const route of literal.match(/\b(GET|POST|PUT|PATCH|DELETE) \/api\/[^\s,;:()'"`]*[^\s,;:()'"`.]/g) ?? []) {
                            found.set(route, Path.relative(SERVER_SRC, path));
                        }
                    }
                }
            }
        }
    };
    walk(SERVER_SRC);
    return found;
};

describe('cliWording', () => {
    it('names the CLI command for the routes in the messages the CLI passes on', () => {
        expect(cliWording('This refresh token is not valid: log in again with POST /api/auth/login')).toBe(
            'This refresh token is not valid: log in again with `flowctl login`'
        );
        expect(cliWording('check it, or request a new one with POST /api/auth/resend-otp')).toBe('check it, or request a new one with `flowctl verify --resend`');
        expect(cliWording('The AI API key … cannot be decrypted with this server’s ENCRYPTION_KEY: set it again with PUT /api/account/settings')).toContain(
            'set it again with `flowctl settings ai set`'
        );
        expect(cliWording('revoke one with DELETE /api/account/tokens/{id} first')).toBe('revoke one with `flowctl tokens revoke <tokenId>` first');
        expect(cliWording('link the account again (GET /api/integrations/google/connect)')).toBe('link the account again (`flowctl google connect`)');
        expect(cliWording('upload the CSV first (POST /api/uploads) and use the uploadId')).toBe('upload the CSV first (`flowctl upload <file.csv>`) and use the uploadId');
        expect(cliWording('Enter it with POST /api/auth/verify-email.')).toBe('Enter it with `flowctl verify`.');
        // A route with an id in it names the command for that id.
        expect(cliWording('retry it (POST /api/workflows/runs/run_abc123/retry) to send the e-mails it did not send')).toBe(
            'retry it (`flowctl runs retry run_abc123`) to send the e-mails it did not send'
        );
        expect(cliWording('request a new one with POST /api/auth/forgot-password')).toBe('request a new one with `flowctl reset-password`');
        // A route the CLI has no command for stays as the server wrote it.
        expect(cliWording('exchange it at POST /api/auth/refresh-token')).toBe('exchange it at POST /api/auth/refresh-token');
    });

    it('covers every route named in a server message, except those of requests the CLI never makes', () => {
        const routes = routesInServerMessages();
        expect(routes.size).toBeGreaterThan(5);
        for (const [route, file] of routes) {
            if (!NOT_CLI.has(route)) {
                expect(cliWording(route), `${route} in apps/server/src/${file}`).toMatch(/^`flowctl [^`]+`$/);
            }
        }
    });
});
