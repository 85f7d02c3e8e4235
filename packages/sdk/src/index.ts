export { type ClientOptions, Flowctl, type RequestOptions } from './client.js';
export {
    AbortError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionError,
    type ErrorDetail,
    FlowctlError,
    ForeignAddressError,
    InternalServerError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    TimeoutError,
    UnprocessableEntityError,
    UnsupportedMediaTypeError,
    WaitTimeoutError
} from './errors.js';
export type { Uploadable } from './multipart.js';
export { Page, PagedList } from './pagination.js';
export type { AccountSettings, AccountTokens } from './resources/account.js';
export type { Auth } from './resources/auth.js';
export type { GoogleIntegration, Integrations } from './resources/integrations.js';
export type { NodeOutputOptions, RunListOptions, RunRetryOptions, Runs } from './resources/runs.js';
export type { Suppressions } from './resources/suppressions.js';
export type { UploadCreateOptions, Uploads } from './resources/uploads.js';
export type { RevisionListOptions, RevisionRestoreOptions, WorkflowRevisions } from './resources/revisions.js';
export type { IdempotentRequestOptions, WorkflowUpdateOptions, Workflows } from './resources/workflows.js';
export type { OnTokens } from './session.js';
export type { FetchLike } from './transport.js';
export type * from './types.js';
export type { WaitOptions } from './wait.js';

import { Flowctl } from './client.js';

export default Flowctl;
