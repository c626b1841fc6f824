// The registry part of the OpenAPI document: search, details, versions, publish,
// download, yank, deprecate, dist-tags, stars (lib/registry behind each).
import 'server-only';

const error = { $ref: '#/components/responses/Error' };
const json = (schema: object, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const p = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'path', required: true, description, schema });
const scope = p('scope', 'the scope, with or without "@"');
const name = p('name', 'the skill name');
const version = p('version', 'an exact version, a dist-tag (latest, next) or a semver range (^1.2)');
const publishToken = [{ apiToken: ['publish'] }];

const hit = {
  type: 'object',
  properties: {
    scope: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    format: { type: 'string' },
    version: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    toolCount: { type: 'integer' },
    tokenGated: { type: 'boolean' },
    signed: { type: 'boolean' },
    downloads: { type: 'integer' },
    stars: { type: 'integer' },
    publishedAt: { type: 'string', format: 'date-time' },
    score: { type: 'number' },
  },
};

export const skillsPaths = {
  '/api/v1/search/suggest': {
    get: {
      summary:
        'Suggestions as you type: skills whose name or tool names match every word (the last as a prefix; typos widened). Rate limited per caller (SKILLYARD_RATE_LIMIT_SUGGEST)',
      parameters: [
        { name: 'q', in: 'query', schema: { type: 'string', maxLength: 200 } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } },
      ],
      responses: {
        200: json({
          type: 'object',
          properties: {
            suggestions: { type: 'array', items: { type: 'object', properties: { scope: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } } } },
            corrections: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        }),
        400: error,
        429: error,
      },
    },
  },
  '/api/v1/skills': {
    get: {
      summary: 'Search skills (full text over name, tool names, description, instructions; typo tolerant)',
      parameters: [
        { name: 'q', in: 'query', schema: { type: 'string', maxLength: 200 } },
        { name: 'format', in: 'query', schema: { enum: ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye'] } },
        { name: 'tag', in: 'query', schema: { type: 'string' } },
        { name: 'gated', in: 'query', schema: { type: 'boolean' }, description: 'token-gated tools' },
        {
          name: 'loadsIn',
          in: 'query',
          schema: { type: 'string', enum: ['claude-code', 'codex', 'openclaw', 'cursor', 'copilot'] },
          description: "skills this agent loads, by its documented loader rules (the manifest's agents)",
        },
        { name: 'signed', in: 'query', schema: { type: 'boolean' } },
        { name: 'scope', in: 'query', schema: { type: 'string' } },
        { name: 'sort', in: 'query', schema: { enum: ['relevance', 'downloads', 'recent', 'stars'] } },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } },
        { name: 'perPage', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
      ],
      responses: {
        200: json({
          type: 'object',
          properties: {
            hits: { type: 'array', items: hit },
            total: { type: 'integer', description: 'matches, counted up to 1,000' },
            totalIsCapped: { type: 'boolean', description: 'more than 1,000 match (total is 1,000)' },
            page: { type: 'integer' },
            perPage: { type: 'integer' },
            corrections: {
              type: 'object',
              additionalProperties: { type: 'array', items: { type: 'string' } },
              description: 'misspelled words and the known words they were widened to',
            },
          },
        }),
        400: error,
      },
    },
    post: {
      summary: 'Publish a version. The body is the package: .tar.gz, .zip, or one .skill.md/.skill.js/.skill.ts file (pass ?filename=)',
      security: publishToken,
      parameters: [
        { name: 'scope', in: 'query', schema: { type: 'string' }, description: 'default: your username; only your own scope' },
        { name: 'tag', in: 'query', schema: { type: 'string' }, description: 'dist-tag (default latest; next for a prerelease)' },
        { name: 'version', in: 'query', schema: { type: 'string' }, description: "semver, when the skill's metadata has none" },
        { name: 'filename', in: 'query', schema: { type: 'string' } },
        { name: 'dryRun', in: 'query', schema: { type: 'boolean' }, description: 'check and preview, store nothing' },
        { name: 'visibility', in: 'query', schema: { enum: ['public', 'unlisted', 'private'] } },
        { name: 'X-Skillyard-Changelog', in: 'header', schema: { type: 'string' }, description: "URI-encoded changelog (default: this version's section of CHANGELOG.md)" },
      ],
      requestBody: { required: true, content: { 'application/gzip': {}, 'application/zip': {}, 'application/octet-stream': {} } },
      responses: {
        200: json({ type: 'object' }, 'dry run: the preview (manifest, diagnostics, findings, problems)'),
        201: json(
          {
            type: 'object',
            properties: {
              scope: { type: 'string' },
              name: { type: 'string' },
              version: { type: 'string' },
              tag: { type: 'string' },
              tagged: { type: 'boolean' },
              integrity: { type: 'string', description: 'sha512-<base64> of the tarball' },
              url: { type: 'string' },
              tarball: { type: 'string' },
              diagnostics: { type: 'array', items: { type: 'object' } },
              findings: { type: 'array', items: { type: 'object' } },
            },
          },
          'published',
        ),
        400: error,
        401: error,
        403: error,
        409: { ...error, description: 'publish/version-exists: the number was used before (never reused)' },
        413: { ...error, description: 'an upload limit (size, files, one file) was passed; the message names it' },
        422: { ...error, description: 'publish/blocked-by-scan: a secret in a file (the message says where)' },
      },
    },
  },
  '/api/v1/skills/{scope}/{name}': {
    get: { summary: 'A skill: latest manifest, dist-tags, versions, downloads, stars', parameters: [scope, name], responses: { 200: json({ type: 'object' }), 404: error } },
  },
  '/api/v1/skills/{scope}/{name}/versions': {
    get: {
      summary: 'Versions newest first with yanked/deprecated marks, changelog, integrity, downloads',
      parameters: [scope, name, { name: 'all', in: 'query', schema: { type: 'boolean' }, description: 'include yanked versions' }],
      responses: { 200: json({ type: 'object', properties: { versions: { type: 'array', items: { type: 'object' } }, distTags: { type: 'object' } } }), 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}': {
    get: { summary: 'One version (exact, tag or range)', parameters: [scope, name, version], responses: { 200: json({ type: 'object' }), 404: error } },
    delete: {
      summary: 'Delete an exact version (its number is never reused)',
      security: publishToken,
      parameters: [scope, name, version],
      responses: { 200: json({ type: 'object' }), 403: error, 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/tarball': {
    get: {
      summary: 'Download a version as .tar.gz; counts a download',
      parameters: [scope, name, version],
      responses: {
        200: {
          description: 'the tarball',
          headers: {
            'X-Skillyard-Integrity': { schema: { type: 'string' }, description: 'sha512-<base64> of the body' },
            'X-Skillyard-Version': { schema: { type: 'string' } },
            'X-Skillyard-Size': { schema: { type: 'string' }, description: 'the length of the body in bytes (it is sent chunked)' },
            'X-Skillyard-Deprecated': { schema: { type: 'string' }, description: 'URI-encoded deprecation message' },
            'X-Skillyard-Yanked': { schema: { type: 'string' } },
          },
          content: { 'application/gzip': {} },
        },
        404: error,
      },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/evidence': {
    get: {
      summary:
        "What the version's code did when the registry ran its examples after the publish (evidence), and where it came from (provenance, for a trusted publisher's version)",
      parameters: [scope, name, version],
      responses: { 200: json({ type: 'object', properties: { evidence: { type: 'object' }, provenance: { type: ['object', 'null'] } } }), 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/permissions': {
    get: {
      summary: 'What the version may do (docs/trust.md): the permission summary and its facts in plain words; with from, the diff from that version',
      parameters: [
        scope,
        name,
        version,
        { name: 'from', in: 'query', required: false, description: 'another version (number, tag or range) to diff from', schema: { type: 'string' } },
      ],
      responses: {
        200: json({
          type: 'object',
          properties: {
            version: { type: 'string' },
            permissions: { type: 'object' },
            facts: { type: 'array' },
            diff: { type: 'object', description: '{from, to, added, removed, widens, sentences}' },
          },
        }),
        404: error,
      },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/statement': {
    get: {
      summary: "The registry's signed statement about the version (compact JWS, EdDSA; keys at /.well-known/skillyard-keys.json)",
      parameters: [scope, name, version],
      responses: {
        200: json({ type: 'object', properties: { version: { type: 'string' }, keyId: { type: 'string' }, jws: { type: 'string' }, payload: { type: 'object' } } }),
        404: error,
      },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/findings': {
    get: {
      summary: "The version's scan findings, each with the matched text in context, why it matters and its newest review; and every review",
      parameters: [scope, name, version],
      responses: { 200: json({ type: 'object', properties: { version: { type: 'string' }, findings: { type: 'array' }, reviews: { type: 'array' } } }), 404: error },
    },
    post: {
      summary: "Mark one finding as reviewed with a reason (the scope's owner or a team publisher; kept in the team's audit log)",
      security: publishToken,
      parameters: [scope, name, version],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['rule', 'file', 'line', 'reason'],
              properties: { rule: { type: 'string' }, file: { type: 'string' }, line: { type: 'integer' }, reason: { type: 'string', minLength: 10 } },
            },
          },
        },
      },
      responses: { 201: json({ type: 'object', properties: { review: { type: 'object' } } }, 'Created'), 403: error, 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/{version}/yank': {
    post: {
      summary: 'Yank (or with undo, unyank) an exact version: downloadable by number, out of ranges and listings',
      security: publishToken,
      parameters: [scope, name, version],
      requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { reason: { type: 'string' }, undo: { type: 'boolean' } } } } } },
      responses: { 200: json({ type: 'object' }), 403: error, 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/deprecate': {
    post: {
      summary: 'Deprecate the versions a range matches (empty message: undeprecate)',
      security: publishToken,
      parameters: [scope, name],
      requestBody: {
        content: { 'application/json': { schema: { type: 'object', required: ['range', 'message'], properties: { range: { type: 'string' }, message: { type: 'string' } } } } },
      },
      responses: { 200: json({ type: 'object' }), 403: error, 404: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/dist-tags': {
    get: { summary: 'Dist-tags: {tag: version}', parameters: [scope, name], responses: { 200: json({ type: 'object', additionalProperties: { type: 'string' } }), 404: error } },
  },
  '/api/v1/skills/{scope}/{name}/dist-tags/{tag}': {
    put: {
      summary: 'Point a dist-tag at a version',
      security: publishToken,
      parameters: [scope, name, p('tag', 'tag name')],
      requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['version'], properties: { version: { type: 'string' } } } } } },
      responses: { 200: json({ type: 'object' }), 403: error, 404: error, 409: error },
    },
    delete: {
      summary: 'Remove a dist-tag (not latest)',
      security: publishToken,
      parameters: [scope, name, p('tag', 'tag name')],
      responses: { 200: json({ type: 'object' }), 400: error, 403: error },
    },
  },
  '/api/v1/skills/{scope}/{name}/star': {
    put: {
      summary: 'Star a skill (a person: signed in or a personal API token; a team token gets 403)',
      security: [{ apiToken: [] }],
      parameters: [scope, name],
      responses: { 200: json({ type: 'object' }), 401: error, 403: error, 404: error },
    },
    delete: {
      summary: 'Remove your star',
      security: [{ apiToken: [] }],
      parameters: [scope, name],
      responses: { 200: json({ type: 'object' }), 401: error, 403: error, 404: error },
    },
  },
} as const;
