/** A document that cannot be read, with a message fit for the item's status (fail_reason). */
export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractError';
  }
}
