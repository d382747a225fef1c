/**
 * The header by which the server render (client/entry-server.tsx) names the files of its page's
 * matched routes, comma-separated, relative to client/ as the client build's manifest names them
 * (e.g. 'routes/register.tsx'): the server links the style sheets of their chunks
 * (server/http/pages.ts `assetTags`).
 */
export const ROUTE_FILES_HEADER = 'x-route-files';
