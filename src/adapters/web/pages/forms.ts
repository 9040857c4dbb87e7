/** An urlencoded form body: a field sent twice arrives as an array. */
export type Form = Record<string, string | string[] | undefined>;

/** One text field, trimmed of nothing (passwords keep their spaces); absent or repeated is the empty string. */
export const field = (form: Form | undefined, name: string): string => {
  const value = form?.[name];
  return typeof value === 'string' ? value : '';
};

/** A field that may be sent several times (checkboxes). */
export const fields = (form: Form | undefined, name: string): string[] => {
  const value = form?.[name];
  return value === undefined ? [] : [value].flat();
};
