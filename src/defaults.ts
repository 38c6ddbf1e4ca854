/**
 * The emulator's default address (contract §1: `npm start` serves
 * `http://127.0.0.1:4010`, API base `/v1`). A leaf module: the CLI reads it
 * before it loads anything else.
 */
export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 4010
/** The API base URL clients call unless told otherwise. */
export const DEFAULT_BASE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}/v1`
