// openapi.json -> src/generated/openapi.ts, shared by `npm run generate` and the drift test.
import openapiTS, { astToString } from 'openapi-typescript';

const BANNER = `// Generated from the server's /openapi.json by \`npm run generate -w @flowctl/sdk\`. Do not edit:
// a test fails when this file differs from what the running server describes.
`;

/** The TypeScript source that describes `document` (an OpenAPI 3 document as parsed JSON). */
export const openApiToTypeScript = async (document) => {
    const ast = await openapiTS(document, { alphabetize: true });
    return `${BANNER}\n${astToString(ast)}`;
};
