import { AppError } from '../../../core/errors.js';
import { name as nameSchema } from '../../../service/schemas.js';

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

/** The `?notice=` a redirect after a form carries to the page it lands on, as view data. */
export const noticeOf = (query: unknown): { notice?: string } => {
  const notice = field(query as Form, 'notice');
  return notice === '' ? {} : { notice };
};

/** The API's own name rule (schemas.ts), said before anything is stored. */
export function checkName(value: string): string {
  const parsed = nameSchema.safeParse(value);
  if (!parsed.success) throw new AppError('validation_failed', `the name ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}
