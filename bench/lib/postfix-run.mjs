// Driven by bench/postfix-check.sh, which starts the private Postfix this talks to. Three 2,000-row
// runs through it: clean; Postfix stopped part-way for the outage; Postfix restarted part-way
// answering 421 to every RCPT for the outage. After each, the Maildir is checked.
import { execFileSync } from 'node:child_process';
import Fs from 'node:fs';
import Path from 'node:path';

import { check } from './api.mjs';
import { startServer } from './server.mjs';
import { createAccount } from './smtp-sink.mjs';

/** `--base=DIR --port=N --outage=S`, from postfix-check.sh. */
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const BASE = arg('base');
const PORT = arg('port');
const OUTAGE_S = Number(arg('outage') || 20);
/** `--only=storm`: that scenario alone. */
const ONLY = arg('only');
const ROWS = 2000;
const etc = Path.join(BASE, 'etc');
const maildir = Path.join(BASE, 'mail', 'Maildir');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const postfix = (...args) => execFileSync('postfix', ['-c', etc, ...args], { stdio: 'pipe' });
const postconf = (setting) => execFileSync('postconf', ['-c', etc, '-e', setting], { stdio: 'pipe' });

/** The messages in the Maildir: file, unfolded headers, raw header lines, body. */
const messages = () => {
    const out = [];
    for (const sub of ['new', 'cur']) {
        const dir = Path.join(maildir, sub);
        for (const file of Fs.existsSync(dir) ? Fs.readdirSync(dir) : []) {
            const raw = Fs.readFileSync(Path.join(dir, file), 'latin1');
            const split = raw.search(/\r?\n\r?\n/);
            const head = raw.slice(0, split);
            const headers = {};
            for (const field of head.replace(/\r?\n[ \t]/g, ' ').split(/\r?\n/)) {
                const at = field.indexOf(':');
                headers[field.slice(0, at).toLowerCase()] = field.slice(at + 1).trim();
            }

            out.push({ headers, headLines: head.split(/\r?\n/), body: raw.slice(split).replace(/^\r?\n\r?\n/, '') });
        }
    }

    return out;
};

const countFor = (prefix) => {
    let n = 0;
    for (const sub of ['new', 'cur']) {
        const dir = Path.join(maildir, sub);
        for (const file of Fs.existsSync(dir) ? Fs.readdirSync(dir) : []) {
            if (Fs.readFileSync(Path.join(dir, file), 'latin1').includes(`To: ${prefix}-p`)) {
                n++;
            }
        }
    }

    return n;
};

/** Sign-up codes arrive through Postfix too. */
const maildirOtp = {
    otp: (email) => {
        const found = messages().find((m) => m.headers.to === email);
        return found ? /\b(\d{6})\b/.exec(found.body)?.[1] : undefined;
    }
};

const retryForMs = OUTAGE_S * 2000;
const server = await startServer({
    env: {
        SMTP_URL: `smtp://127.0.0.1:${PORT}`,
        MAIL_FROM: 'flowctl check <news@example.test>',
        SMTP_RETRY_FOR_MS: String(retryForMs),
        RUN_NO_PROGRESS_MS: String(retryForMs + 960_000),
        RATE_LIMIT_PER_ACCOUNT: '100000000',
        RATE_LIMIT_PER_IP: '100000000'
    }
});

const scenario = async (name, fault) => {
    if (ONLY && ONLY !== name) {
        return true;
    }

    const { token } = await createAccount(server, maildirOtp);
    const auth = { authorization: `Bearer ${token}` };
    const domain = 'example.test';
    const long = 'x'.repeat(1000);
    const lines = ['name,email,city,code', ...Array.from({ length: ROWS }, (_, i) => `P${i},${name}-p${i}@${domain},${i % 7 === 0 ? '=?UTF-8?B?SGFja2Vk?=' : 'Lisbon'},${i % 10 === 0 ? long : 'ok'}`)];
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'people.csv');
    const { uploadId } = await check(await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: auth }), 201, 'upload');
    const graph = {
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
            {
                id: 'send',
                type: 'OUTPUT',
                data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: 'Hello {{item.name}} from {{item.city}} {{item.code}}', body: 'From the team:\n.{{item.name}}\nbye' }
            }
        ],
        edges: [
            { source: 'start', target: 'people' },
            { source: 'people', target: 'send' }
        ]
    };
    const headers = { ...auth, 'content-type': 'application/json' };
    const { workflowId } = await check(await fetch(`${server.url}/api/workflows`, { method: 'POST', headers, body: JSON.stringify({ name, graph }) }), 201, 'workflow');
    const { runId } = await check(await fetch(`${server.url}/api/workflows/${workflowId}/run`, { method: 'POST', headers: auth }), 202, 'enqueue');
    let backAt = null;
    let waiting = null;
    if (fault) {
        while (countFor(name) < ROWS * 0.15) {
            await sleep(200);
        }

        await fault.start();
        const until = Date.now() + OUTAGE_S * 1000;
        while (Date.now() < until) {
            await sleep(500);
            const run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
            waiting ??= run.nodes.find((node) => node.nodeId === 'send')?.output?.waiting ?? null;
        }

        await fault.end();
        backAt = Date.now();
    }

    let run;
    do {
        await sleep(200);
        run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
    } while (!run.completedAt);

    // Postfix delivers from its queue after accepting: wait for the Maildir to settle.
    let delivered = countFor(name);
    for (let stable = 0; stable < 5 && delivered < ROWS + 10; ) {
        await sleep(1000);
        const now = countFor(name);
        stable = now === delivered ? stable + 1 : 0;
        delivered = now;
    }

    const mine = messages().filter((m) => m.headers.to?.startsWith(`${name}-p`));
    const perRecipient = new Map();
    for (const m of mine) {
        perRecipient.set(m.headers.to, (perRecipient.get(m.headers.to) ?? 0) + 1);
    }

    const longest = Math.max(...mine.flatMap((m) => m.headLines.map((line) => Buffer.byteLength(line, 'latin1'))));
    const rawLookalike = mine.filter((m) => m.headLines.some((line) => line.includes('=?UTF-8?B?SGFja2Vk?='))).length;
    // As the reader sees it (quoted-printable decoded): nothing an mbox or a hop changed.
    const decoded = (body) => body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
    const mangledBody = mine.filter((m) => /^>From /m.test(m.body) || !/^From the team:\r?\n\.P\d+\r?\nbye/.test(decoded(m.body))).length;
    const failed = ROWS - run.result.emailsSent - (run.result.unknownOutcome ?? 0);
    console.log(`\n-- ${name}${fault ? ` (${fault.what}, ${OUTAGE_S} s; SMTP_RETRY_FOR_MS=${retryForMs})` : ''}`);
    console.log(`run ${run.status}: ${run.result.emailsSent} sent, rows failed ${failed} (target 0), possiblyDuplicated ${run.result.possiblyDuplicated ?? 0}`);
    if (fault) {
        console.log(`node said while held: ${waiting ?? '(nothing)'}`);
        const after = (new Date(run.completedAt).getTime() - backAt) / 1000;
        console.log(after >= 0 ? `run finished ${after.toFixed(1)} s after the relay was back` : `run finished ${(-after).toFixed(1)} s before the fault ended: it did not hold the run up`);
    }

    const twice = [...perRecipient.values()].filter((n) => n > 1).length;
    console.log(
        `Maildir: ${mine.length} messages, ${perRecipient.size} of ${ROWS} recipients, ${twice} twice; longest header line ${longest} bytes; raw encoded-word lookalikes ${rawLookalike}; bodies altered ${mangledBody}`
    );
    // A recipient mailed twice passes only when the run said it might have been (possiblyDuplicated).
    return failed === 0 && perRecipient.size === ROWS && twice <= (run.result.possiblyDuplicated ?? 0) && longest <= 998 && rawLookalike === 0 && mangledBody === 0;
};

let ok = true;
try {
    ok = (await scenario('clean', null)) && ok;
    ok =
        (await scenario('stopped', {
            what: 'Postfix stopped',
            start: async () => postfix('stop'),
            end: async () => postfix('start')
        })) && ok;
    ok =
        (await scenario('storm', {
            what: 'Postfix restarted answering 421 to every RCPT (defer_code = 421)',
            start: async () => {
                postconf('defer_code = 421');
                postconf('smtpd_client_restrictions = defer');
                // A reload would leave the open connections their old policy (their smtpd lives on), and
                // killing those smtpd makes master throttle the service for 60 s (no greeting at all):
                // restart it, as an operator applying a policy would.
                postfix('stop');
                postfix('start');
            },
            end: async () => {
                postconf('smtpd_client_restrictions =');
                postconf('defer_code = 450');
                postfix('reload');
            }
        })) && ok;
} finally {
    await server.stop();
}

console.log(ok ? '\nall checks passed' : '\nSOME CHECKS FAILED');
process.exitCode = ok ? 0 : 1;
