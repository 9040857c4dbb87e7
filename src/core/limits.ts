/** Limits of the interface spec, defined once: validation, the OpenAPI document and the capabilities guide import them. */
export const LIMITS = {
  requestBodyBytes: 10 * 1024 * 1024,
  elementsPerDocument: 20_000,
  nameLength: 200,
  pageSizeDefault: 50,
  pageSizeMax: 100,
} as const;
