// Every error the service answers with, in one list, so the README's error table and the code
// cannot drift. The HTTP body is always {code, error, message}; see plugins/core/errors.ts.
import createError from '@fastify/error'

export const Errors = {
  MissingApiKey: createError(
    'SVC_MISSING_API_KEY',
    'Missing api_key: send your API key in the api_key field of the body or the query string.',
    401
  ),
  InvalidApiKey: createError('SVC_INVALID_API_KEY', 'Invalid api_key: the key is unknown or has been revoked.', 401),
  ApiKeyType: createError('SVC_API_KEY_TYPE', 'api_key must be a string.', 406),
  FieldType: createError('SVC_FIELD_TYPE', '%s must be %s.', 406),
  MissingField: createError('SVC_MISSING_FIELD', 'Missing parameter: %s.', 400),
  InvalidField: createError('SVC_INVALID_FIELD', '%s', 400),
  RepeatedField: createError('SVC_REPEATED_FIELD', '%s was sent %s times; send it once.', 400),
  EmptyText: createError(
    'SVC_EMPTY_TEXT',
    '%s must be a non-empty string (not only whitespace or control characters).',
    400
  ),
  ArrayOnSingle: createError(
    'SVC_ARRAY_ON_SINGLE',
    '%s must be one string on this path; send several texts to %s_batch.',
    400
  ),
  BatchNotArray: createError(
    'SVC_BATCH_NOT_ARRAY',
    'text must be a JSON array of strings, e.g. text=["first text","second text"].',
    400
  ),
  BatchEmpty: createError('SVC_BATCH_EMPTY', 'text must hold at least one text.', 400),
  BatchTooLarge: createError('SVC_BATCH_TOO_LARGE', 'A batch holds at most %s texts; this one has %s.', 400),
  BatchItem: createError(
    'SVC_BATCH_ITEM',
    'text[%s] must be a non-empty string (not only whitespace or control characters).',
    400
  ),
  TextTooLong: createError('SVC_TEXT_TOO_LONG', '%s is longer than the limit of %s characters.', 413),
  TooFewWords: createError('SVC_TOO_FEW_WORDS', '%s must contain at least two words.', 400),
  UnsupportedLang: createError('SVC_UNSUPPORTED_LANG', 'lang_code "%s" is not supported by %s; supported: %s.', 400),
  InvalidQuery: createError('SVC_INVALID_QUERY', 'query must be "feedback" when given.', 400),
  ImageSource: createError(
    'SVC_IMAGE_SOURCE',
    'Send exactly one of file (a multipart upload) and url (an https address); %s.',
    400
  ),
  UrlNotHttps: createError('SVC_URL_NOT_HTTPS', 'url must be an https:// address.', 400),
  UrlFetch: createError('SVC_URL_FETCH', 'The image at url could not be fetched: %s.', 400),
  ImageTooLarge: createError('SVC_IMAGE_TOO_LARGE', 'The image is over the limit of %s.', 413),
  UnsupportedImage: createError('SVC_UNSUPPORTED_IMAGE', 'The file is not a jpeg, png, bmp or tiff image%s.', 415),
  BodyTooLarge: createError('SVC_BODY_TOO_LARGE', 'The request body is over the limit of %s.', 413),
  MalformedBody: createError('SVC_MALFORMED_BODY', 'The request body could not be read: %s.', 400),
  UnsupportedMediaType: createError(
    'SVC_UNSUPPORTED_MEDIA_TYPE',
    'Content-Type %s is not accepted; send application/x-www-form-urlencoded, multipart/form-data or application/json.',
    415
  ),
  QuotaExceeded: createError('SVC_QUOTA_EXCEEDED', '%s', 403),
  RateLimited: createError('SVC_RATE_LIMITED', 'Too many requests: the limit is %s per second; retry in %s s.', 429),
  ModelMissing: createError(
    'SVC_MODEL_MISSING',
    'The model for %s is not installed on this server (model-store/%s has no usable version); ' +
      'ask the operator to add it.',
    503
  ),
  StoreUnavailable: createError('SVC_STORE_UNAVAILABLE', 'The quota store is unavailable; retry shortly.', 503),
  Overloaded: createError('SVC_OVERLOADED', 'The server is busy; retry shortly.', 503),
  DeadlinePassed: createError(
    'SVC_DEADLINE_PASSED',
    'The answer was not ready within the deadline of %s s; nothing was charged. Retry later or send fewer texts.',
    503
  ),
  CorsRefused: createError(
    'SVC_CORS_REFUSED',
    'Cross-origin calls from %s are not allowed %s; the operator lists the origins that may call it in CORS_ORIGINS.',
    403
  ),
  NotFound: createError('SVC_NOT_FOUND', 'No such path: %s %s. Operations are POST /v4/<operation>; see /docs.', 404),
  NotOffered: createError('SVC_NOT_OFFERED', 'This server does not offer %s: %s See docs/api.md.', 501),
  MethodNotAllowed: createError('SVC_METHOD_NOT_ALLOWED', '%s is not allowed on %s; use POST.', 405),
  AdminUnauthorized: createError(
    'SVC_ADMIN_UNAUTHORIZED',
    'A valid admin token is required (Authorization: Bearer <ADMIN_TOKEN>).',
    401
  ),
  AdminThrottled: createError(
    'SVC_ADMIN_THROTTLED',
    'Too many wrong admin tokens from this address; retry in %s s.',
    429
  ),
  AdminDisabled: createError('SVC_ADMIN_DISABLED', 'The admin API is disabled: set ADMIN_TOKEN to enable it.', 404),
  KeyNotFound: createError('SVC_KEY_NOT_FOUND', 'No key with id %s.', 404)
} as const

export type ServiceError = Error & { statusCode: number; code: string; headers?: Record<string, string | number> }

/** Attach response headers (Retry-After ...) to an error before throwing it. */
export function withHeaders<E extends Error> (err: E, headers: Record<string, string | number>): E {
  ;(err as unknown as ServiceError).headers = headers
  return err
}
