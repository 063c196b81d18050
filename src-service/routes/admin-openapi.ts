// GET /admin/openapi.json (issue 27 Deliver 6): an OpenAPI 3.1 document of the admin API, built from the routes the app
// actually registers, so it cannot list a route that does not exist or miss one. Bodies and answers are described in
// docs/local-service.md "The admin API"; here every operation has its path parameters, the admin token, a JSON body
// where the method takes one, and the JSON error body on failure.
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';

type Doc = Record<string, unknown>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const ERROR_SCHEMA: Doc = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, request_id: { type: 'string', pattern: '^req_[A-Za-z0-9]{20}$' } },
    },
  },
};

/** `/admin/accounts/:id/webhook` → `/admin/accounts/{id}/webhook` and its parameter names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params = [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
  return { path: path.replace(/:([A-Za-z_]+)/g, '{$1}'), params };
}

/** A readable operation id: `post /admin/accounts/{id}/api-keys` → `postAdminAccountsIdApiKeys`. */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function operation(method: string, path: string, params: string[]): Doc {
  return {
    operationId: operationId(method, path),
    tags: ['admin'],
    summary: `${method} ${path}`,
    description: 'See docs/local-service.md, "The admin API", for the body and the answer.',
    parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(BODY_METHODS.has(method)
      ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } } }
      : {}),
    responses: {
      '2XX': { description: 'Success: JSON (or no body on 204)', content: { 'application/json': { schema: {} } } },
      default: { description: 'A failure with the JSON error body', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
}

export function adminOpenApiDocument(routes: ReadonlyArray<{ method: string; path: string }>, serverUrl: string): Doc {
  const paths: Record<string, Doc> = {};
  for (const route of routes) {
    if (!route.path.startsWith('/admin') || route.method === 'ALL') continue;
    const { path, params } = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route.method, path, params);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Image Studio local service: admin API',
      version: '1',
      description: 'The local service’s own admin API (accounts, keys, faults, clock, snapshots, webhooks, request ledger). Not part of the production service.',
    },
    servers: [{ url: serverUrl }],
    security: [{ adminToken: [] }],
    tags: [{ name: 'admin' }],
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token of the ready line (adm_…).' } },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}

export function registerAdminOpenApiRoute(app: Hono<AppEnv>, deps: ServiceDeps): void {
  app.get('/admin/openapi.json', deps.requireAdmin, (c) => c.json(adminOpenApiDocument(app.routes, deps.baseUrl())));
}
