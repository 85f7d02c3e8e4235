// Ordered schema changes. Never edit one that has shipped: add the next.
import { sql as initial } from './001-initial.js';
import { sql as runs } from './002-runs.js';
import { sql as rateLimits } from './003-rate-limits.js';
import { sql as uploadChunkAge } from './004-upload-chunk-age.js';
import { sql as emailCodes } from './005-email-codes.js';
import { sql as deliveryIntents } from './006-delivery-intents.js';
import { sql as sdkServer } from './007-sdk-server.js';
import { sql as google } from './008-google.js';
import { sql as deliveryAttempts } from './009-delivery-attempts.js';
import { sql as sessions } from './010-sessions.js';
import { sql as aiReplies } from './011-ai-replies.js';
import { sql as runStrikes } from './013-run-strikes.js';
import { sql as runSlots } from './014-run-slots.js';
import { sql as leaseVitals } from './015-lease-vitals.js';
import { sql as apiTokenSessions } from './016-api-token-sessions.js';
import { sql as aiPreviewReplies } from './017-ai-preview-replies.js';
import { sql as deliveryLedger } from './018-delivery-ledger.js';
import { sql as deliverySuppressed } from './019-delivery-suppressed.js';
import { sql as suppressions } from './020-suppressions.js';
import { sql as schedules } from './024-schedules.js';
import { sql as revisions } from './027-revisions.js';
import { sql as uploadSha256 } from './030-upload-sha256.js';
import { sql as runsAccountRecent } from './031-runs-account-recent.js';
import { sql as suppressionKeysNfc } from './034-suppression-keys-nfc.js';
import { sql as hookUploads } from './036-hook-uploads.js';
import { sql as runsFewerIndexes } from './037-runs-fewer-indexes.js';
import { sql as keyedRuns } from './038-keyed-runs.js';
import { sql as keyedWorkflows } from './039-keyed-workflows.js';

export interface Migration {
    id: number;
    name: string;
    sql: string;
}

export const migrations: Migration[] = [
    { id: 1, name: '001-initial', sql: initial },
    { id: 2, name: '002-runs', sql: runs },
    { id: 3, name: '003-rate-limits', sql: rateLimits },
    { id: 4, name: '004-upload-chunk-age', sql: uploadChunkAge },
    { id: 5, name: '005-email-codes', sql: emailCodes },
    { id: 6, name: '006-delivery-intents', sql: deliveryIntents },
    { id: 7, name: '007-sdk-server', sql: sdkServer },
    { id: 8, name: '008-google', sql: google },
    { id: 9, name: '009-delivery-attempts', sql: deliveryAttempts },
    { id: 10, name: '010-sessions', sql: sessions },
    { id: 11, name: '011-ai-replies', sql: aiReplies },
    { id: 13, name: '013-run-strikes', sql: runStrikes },
    { id: 14, name: '014-run-slots', sql: runSlots },
    { id: 15, name: '015-lease-vitals', sql: leaseVitals },
    { id: 16, name: '016-api-token-sessions', sql: apiTokenSessions },
    { id: 17, name: '017-ai-preview-replies', sql: aiPreviewReplies },
    { id: 18, name: '018-delivery-ledger', sql: deliveryLedger },
    { id: 19, name: '019-delivery-suppressed', sql: deliverySuppressed },
    { id: 20, name: '020-suppressions', sql: suppressions },
    { id: 24, name: '024-schedules', sql: schedules },
    { id: 27, name: '027-revisions', sql: revisions },
    { id: 30, name: '030-upload-sha256', sql: uploadSha256 },
    { id: 31, name: '031-runs-account-recent', sql: runsAccountRecent },
    { id: 34, name: '034-suppression-keys-nfc', sql: suppressionKeysNfc },
    { id: 36, name: '036-hook-uploads', sql: hookUploads },
    { id: 37, name: '037-runs-fewer-indexes', sql: runsFewerIndexes },
    { id: 38, name: '038-keyed-runs', sql: keyedRuns },
    { id: 39, name: '039-keyed-workflows', sql: keyedWorkflows }
];
