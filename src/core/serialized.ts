/**
 * A value with its JSON text, composed from cached parts (the project
 * list: `model/response-cache.ts`): a handler may answer one, and the
 * pipeline then sends `text`, which is exactly `JSON.stringify(value)`,
 * instead of serialising `value` again (with `validateResponses`, it checks
 * that it is).
 */
export class Serialized<T> {
  constructor(
    readonly value: T,
    readonly text: string,
  ) {}
}
