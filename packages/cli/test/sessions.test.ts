// Issue 18 through the CLI: a contested sign-up asks for a new password at verify, --resend within a
// minute says when to try again, and tokens create gives every token an expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flowctl, freshEmail, freshHome, otpFor, type Server, signUp, startServer } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('issue 18 in the CLI', () => {
    it('verify --resend within a minute of the last code says no code was sent and when to try again', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        const email = freshEmail('resend');
        expect((await flowctl(['register', '--email', email, '--full-name', 'Resend', '--password-stdin'], { home, env, input: 'correct horse battery\n' })).code).toBe(0);

        const resent = await flowctl(['verify', '--email', email, '--resend'], { home, env });
        expect(resent.code).toBe(1);
        expect(resent.stdout).toBe('');
        expect(resent.stderr).toMatch(/no new code was sent: one was asked for .* less than a minute ago/);
        expect(resent.stderr).toMatch(/try again in \d+ s \(after \d\d:\d\d:\d\d UTC\)/);

        const asJson = await flowctl(['--json', 'verify', '--email', email, '--resend'], { home, env });
        expect(asJson.code).toBe(1);
        expect(asJson.json.error.retryAfter ?? asJson.json.retryAfter).toBeGreaterThan(0);
    });

    it('verify of a contested sign-up asks for the new password (--password-stdin), which then logs in', async () => {
        const env = { FLOWCTL_API_URL: server.url };
        const email = freshEmail('contested');
        const stranger = freshHome();
        const owner = freshHome();
        expect((await flowctl(['register', '--email', email, '--full-name', 'Stranger', '--password-stdin'], { home: stranger, env, input: 'stranger password\n' })).code).toBe(0);
        const strangersCode = await otpFor(server.smtp, email);
        expect((await flowctl(['register', '--email', email, '--full-name', 'Owner', '--password-stdin'], { home: owner, env, input: 'owner password\n' })).code).toBe(0);
        expect(await otpFor(server.smtp, email)).toBeTruthy();

        // The owner cannot tell the e-mails apart and enters the stranger's code.
        const verified = await flowctl(['--json', 'verify', '--email', email, '--code', strangersCode, '--password-stdin'], { home: owner, env, input: 'the real password\n' });
        expect(verified.code, verified.stderr).toBe(0);
        expect(verified.json).toMatchObject({ email, signedIn: true, passwordSet: true });

        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home: stranger, env, input: 'stranger password\n' })).code).toBe(3);
        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home: owner, env, input: 'the real password\n' })).code).toBe(0);
    });

    it('without a terminal or --password-stdin, verify of a contested sign-up signs in and says how to set the password', async () => {
        const env = { FLOWCTL_API_URL: server.url };
        const email = freshEmail('notty');
        const home = freshHome();
        await flowctl(['register', '--email', email, '--full-name', 'A', '--password-stdin'], { home: freshHome(), env, input: 'first password\n' });
        await otpFor(server.smtp, email);
        await flowctl(['register', '--email', email, '--full-name', 'B', '--password-stdin'], { home, env, input: 'second password\n' });
        const code = await otpFor(server.smtp, email);

        const verified = await flowctl(['verify', '--email', email, '--code', code], { home, env });
        expect(verified.code).toBe(2);
        expect(verified.stderr).toMatch(/no password yet[\s\S]*flowctl set-password --password-stdin/);

        const set = await flowctl(['--json', 'set-password', '--password-stdin'], { home, env, input: 'now a password\n' });
        expect(set.code, set.stderr).toBe(0);
        expect(set.json).toEqual({ passwordSet: true, revokedApiTokens: [], apiTokens: [] });
        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home, env, input: 'now a password\n' })).code).toBe(0);
    });

    it('set-password names the API tokens revoked with the other sessions, lists those left, and says how to revoke one', async () => {
        const env = { FLOWCTL_API_URL: server.url };
        const home = freshHome();
        const thief = freshHome();
        const { email, password } = await signUp(server, home);
        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home: thief, env, input: `${password}\n` })).code).toBe(0);
        const stolen = await flowctl(['--json', 'tokens', 'create', '--name', 'made by the thief'], { home: thief });
        const mine = await flowctl(['--json', 'tokens', 'create', '--name', 'ci'], { home });
        expect(stolen.code, stolen.stderr).toBe(0);
        expect(mine.code, mine.stderr).toBe(0);

        const set = await flowctl(['set-password', '--password-stdin'], { home, input: 'a password after the theft\n' });
        expect(set.code, set.stderr).toBe(0);
        expect(set.stdout).toContain(`revoked 1 API token made by those sessions: ${stolen.json.id} (made by the thief)`);
        expect(set.stdout).toMatch(new RegExp(`API tokens still working:\n.*ID +NAME.*\n${mine.json.id} +ci `));
        expect(set.stdout).toContain('revoke any you do not recognise: flowctl tokens revoke <id>');

        const withStolen = await flowctl(['whoami'], { home: freshHome(), env: { ...env, FLOWCTL_TOKEN: stolen.json.token } });
        expect(withStolen.code).toBe(3);
        const withMine = await flowctl(['whoami'], { home: freshHome(), env: { ...env, FLOWCTL_TOKEN: mine.json.token } });
        expect(withMine.code, withMine.stderr).toBe(0);
    });

    it('tokens create gives a token 90 days unless told, and refuses more than 365', async () => {
        const home = freshHome();
        await signUp(server, home);
        const created = await flowctl(['--json', 'tokens', 'create', '--name', 'ci'], { home });
        expect(created.code, created.stderr).toBe(0);
        expect(Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt)).toBe(90 * 86_400_000);

        const tooLong = await flowctl(['tokens', 'create', '--name', 'ci', '--expires-in-days', '366'], { home });
        expect(tooLong.code).toBe(2);
        expect(tooLong.stderr).toContain('from 1 to 365');
    });

    it('tokens create after an old sign-in: refused without the password, created with --password-stdin', async () => {
        const home = freshHome();
        const { password } = await signUp(server, home);
        await server.app.ctx.db.query("UPDATE sessions SET signed_in_at = signed_in_at - interval '11 minutes'");

        const refused = await flowctl(['tokens', 'create', '--name', 'ci'], { home });
        expect(refused.code).toBe(3);
        expect(refused.stderr).toMatch(/sign-in from the last 10 minutes[\s\S]*--password-stdin/);

        const created = await flowctl(['--json', 'tokens', 'create', '--name', 'ci', '--password-stdin'], { home, input: `${password}\n` });
        expect(created.code, created.stderr).toBe(0);
        expect(created.json.token).toMatch(/^flc_/);
    });

    it('reset-password e-mails a code, then sets the new password with it; the old sign-in ends', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        const { email, password } = await signUp(server, home);
        expect((await flowctl(['whoami'], { home, env })).code).toBe(0);

        const asked = await flowctl(['reset-password', '--email', email], { home, env });
        expect(asked.code, asked.stderr).toBe(0);
        expect(asked.stdout).toContain(`next: flowctl reset-password --email ${email} --code <code>`);
        let code: string | undefined;
        while (!code) {
            const mine = server.smtp.messages.filter((m) => m.to.includes(email));
            code = /password reset code is (\d{6})/.exec(mine.at(-1)?.text ?? '')?.[1];
            if (!code) await server.smtp.waitFor(server.smtp.messages.length + 1);
        }

        const wrong = await flowctl(['reset-password', '--email', email, '--code', code === '000000' ? '111111' : '000000', '--password-stdin'], { home, env, input: 'reset horse battery\n' });
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain(`get a new code: flowctl reset-password --email ${email}`);
        expect(wrong.stderr).not.toMatch(/POST \/api\//);

        const reset = await flowctl(['--json', 'reset-password', '--email', email, '--code', code, '--password-stdin'], { home, env, input: 'reset horse battery\n' });
        expect(reset.code, reset.stderr).toBe(0);
        expect(reset.json).toEqual({ email, passwordReset: true });
        expect((await flowctl(['whoami'], { home, env })).code).toBe(3);
        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home, env, input: `${password}\n` })).code).not.toBe(0);
        expect((await flowctl(['login', '--email', email, '--password-stdin'], { home, env, input: 'reset horse battery\n' })).code).toBe(0);
    });
});
