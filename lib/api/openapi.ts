// The OpenAPI description of /api/v1 (served at /api/v1/openapi.json).
import 'server-only';
import { skillsPaths } from './openapi-skills';

const error = {
  description: 'An error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const runId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const control = { name: 'X-Run-Control', in: 'header', required: false, schema: { type: 'string' }, description: 'the run control token (or the creator cookie)' };

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Skillyard API',
    version: '1',
    description:
      'Registry tools and playground runs. Errors are `{error: {code, message}}` with the codes of docs/errors.md; every answer carries X-Request-Id and RateLimit-* headers, 429 answers Retry-After; JSON bodies are limited to 1 MiB and 64 levels of nesting.',
  },
  components: {
    responses: { Error: error },
    securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'API token `sy_…` (scopes publish, invoke, runs)' } },
  },
  security: [{}, { apiToken: [] }],
  paths: {
    ...skillsPaths,
    '/api/health': { get: { summary: 'Health and database status', responses: { 200: json({ type: 'object' }), 503: json({ type: 'object' }) } } },
    '/api/v1/tools/{name}/invoke': {
      post: {
        summary: 'Invoke a registry tool through the whole pipeline',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' } }],
        requestBody: json({ type: 'object', properties: { args: {}, skill: { type: 'string', description: '@scope/name[@version]' } } }),
        responses: {
          200: json({ type: 'object', properties: { skill: { type: 'string' }, version: { type: 'string' }, tool: { type: 'string' }, result: {}, ms: { type: 'number' } } }),
          400: error,
          401: error,
          403: error,
          404: error,
          409: error,
          413: error,
          429: error,
        },
      },
    },
    '/api/v1/runs': {
      post: {
        summary: 'Start a playground run',
        requestBody: json({
          type: 'object',
          required: ['skills', 'provider', 'task'],
          properties: {
            skills: { type: 'array', items: { type: 'string' } },
            allowedTools: { type: 'string' },
            provider: { enum: ['scripted', 'manual', 'openai', 'anthropic'] },
            model: { type: 'string' },
            script: { type: 'array', items: {} },
            task: { type: 'string' },
            maxTurns: { type: 'integer' },
            maxSteps: { type: 'integer' },
            visibility: { enum: ['public', 'unlisted', 'private'] },
          },
        }),
        responses: {
          201: json({ type: 'object', properties: { id: { type: 'string' }, controlToken: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' } } }),
          400: error,
          429: { ...error, description: 'run/too-many-active: the caller (or all anonymous callers) has the most queued or running runs allowed' },
        },
      },
    },
    '/api/v1/runs/{id}': { get: { summary: 'A run', parameters: [runId], responses: { 200: json({ type: 'object' }), 404: error } } },
    '/api/v1/runs/{id}/events': {
      get: {
        summary:
          'The run trace as Server-Sent Events (`id:` = seq; resume with Last-Event-ID or ?after=); with ?format=json the stored events after `after` as one JSON page of up to 10,000 events and about 2 MiB (SKILLYARD_RUN_EVENT_PAGE_BYTES; at least one event) ({ events, lastSeq, more }): follow lastSeq while more',
        parameters: [
          runId,
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string', pattern: '^[0-9]{1,10}$' } },
          { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 2147483647 } },
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['sse', 'json'] } },
        ],
        responses: {
          200: {
            description: 'event stream, or with ?format=json a page of stored events',
            content: {
              'text/event-stream': {},
              'application/json': {
                schema: { type: 'object', properties: { events: { type: 'array', items: { type: 'object' } }, lastSeq: { type: 'integer' }, more: { type: 'boolean' } } },
              },
            },
          },
          400: { ...error, description: 'input/invalid-event-id: not a whole number from 0 to 2147483647; input/invalid: an unknown format' },
          404: error,
        },
      },
    },
    '/api/v1/runs/{id}/cancel': { post: { summary: 'Cancel a run', parameters: [runId, control], responses: { 200: json({ type: 'object' }), 403: error, 404: error } } },
    '/api/v1/runs/{id}/turns': {
      post: {
        summary: "Give a manual run its next turn's code",
        parameters: [runId, control],
        requestBody: json({ type: 'object', properties: { turn: {} } }),
        responses: { 200: json({ type: 'object' }), 403: error, 409: error },
      },
    },
    '/api/v1/runs/{id}/fork': {
      post: {
        summary: 'Run the same configuration again as the caller: the same pinned versions (default), the latest, or one skill moved',
        parameters: [runId],
        requestBody: json({
          type: 'object',
          properties: {
            task: { type: 'string' },
            versions: {
              type: 'object',
              properties: {
                mode: { type: 'string', enum: ['same', 'latest', 'move'] },
                skill: { type: 'string', description: '@scope/name (mode move)' },
                version: { type: 'string', description: 'mode move' },
              },
              required: ['mode'],
            },
          },
        }),
        responses: { 201: json({ type: 'object' }), 400: error, 404: error, 429: error },
      },
    },
  },
} as const;
