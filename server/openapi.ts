import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { isNotJson } from '#domain/responses/common';
import type { Route } from './http';

/** The OpenAPI 3.1 document of the registered routes, generated from their valibot schemas. */

/** valibot's email rule, as the document states it (a format would let other addresses through). */
const EMAIL_PATTERN =
  '^[A-Za-z0-9_+-]+(?:\\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*\\.[A-Za-z]{2,}$';

/**
 * The conversion's output finished: a schema whose pipe states its shape itself (`documented`
 * metadata, merged by the conversion as an `openapi` key) becomes exactly that; and in an input, no
 * text the API reads may hold U+0000 (see server/http.ts), so every string without a pattern or a
 * list of values says so.
 */
function finish(schema: JsonSchema, typeMode: 'input' | 'output'): JsonSchema {
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const o = node as Record<string, unknown>;
    if (typeof o.openapi === 'object' && o.openapi !== null) {
      const stated = structuredClone(o.openapi);
      for (const key of Object.keys(o)) delete o[key];
      Object.assign(o, stated);
    }
    if (
      typeMode === 'input' &&
      o.type === 'string' &&
      !('pattern' in o) &&
      !('enum' in o) &&
      !('const' in o)
    ) {
      o.pattern = '^[^\\x00]*$';
    }
    for (const value of Object.values(o)) walk(value);
  };
  walk(schema);
  return schema;
}

/** The JSON Schema of a request's input (`input`) or of a success answer (`output`). */
function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (valibotAction.type !== 'email') return undefined;
      const { format: _format, ...rest } = jsonSchema;
      return { ...rest, pattern: EMAIL_PATTERN };
    },
  });
  return finish(rest, typeMode);
}

function parameters(schema: v.GenericSchema | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: property,
  }));
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** e.g. GET /users/{id} → getUsersById, POST /auth/logins → postAuthLogins. */
function operationId(route: Route): string {
  const words = route.path.match(/\{\w+\}|[A-Za-z0-9]+/g) ?? [];
  return (
    route.method +
    words.map((w) => (w.startsWith('{') ? `By${capital(w.slice(1, -1))}` : capital(w))).join('')
  );
}

const errorRef = { $ref: '#/components/schemas/Error' };

/**
 * The answers every route of its kind can give besides its own: 400 when it reads input (a value
 * outside its schema), 401 when it reads a session (none, expired or revoked; an optional session
 * sent and no longer valid), 403 for a back-office route asked by a non-admin. A route's own
 * description of a status wins.
 */
function impliedResponses(route: Route): Record<string, string> {
  return {
    ...((route.params || route.query || route.body) && {
      400: 'INVALID_VALUE (or the code of the rule broken), with the field',
    }),
    ...(route.params && { 404: 'NOT_FOUND: a path parameter outside its pattern names nothing' }),
    ...(route.auth !== 'none' && { 401: 'UNAUTHORIZED: no valid session' }),
    ...(route.auth === 'admin' && { 403: 'FORBIDDEN: not an admin' }),
  };
}

/**
 * The content of a success answer: the JSON Schema of the route's response schema, the media type
 * of an answer that is not JSON (a CSV file), nothing for one without a body (204, a redirect).
 */
function successContent(route: Route, status: number) {
  const { response } = route;
  if (!response || status === 204 || (status >= 300 && status < 400)) return undefined;
  if (!isNotJson(response)) return { 'application/json': { schema: jsonSchema(response, 'output') } };
  return response.mediaType ? { [response.mediaType]: { schema: { type: 'string' } } } : undefined;
}

function operation(route: Route) {
  const responses = Object.fromEntries(
    Object.entries({ ...impliedResponses(route), ...route.responses }).map(([status, description]) => {
      if (Number(status) >= 400) {
        return [status, { description, content: { 'application/json': { schema: errorRef } } }];
      }
      const content = successContent(route, Number(status));
      return [status, { description, ...(content && { content }) }];
    }),
  );
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    ...(route.auth !== 'none' && {
      security: route.auth === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    }),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body && {
      requestBody: {
        // An empty body reads as {}: it may be left out exactly when {} is a valid body.
        required: !v.safeParse(route.body, {}).success,
        content: { 'application/json': { schema: jsonSchema(route.body) } },
      },
    }),
    responses,
  };
}

export function openApiDocument(routes: readonly Route[], version: string) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vitrine API', version },
    servers: [{ url: '/api' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: {
              type: 'string',
              description: 'Error code (the list in domain/errorCodes.ts), e.g. EMAIL_EXISTS',
            },
            field: { type: 'string', description: 'The input field the error is about' },
            message: { type: 'string' },
            params: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
          },
        },
      },
    },
  };
}
