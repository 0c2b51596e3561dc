/** Where the device's API lives. */
export const API_PREFIX = '/nvr/v1'
/** Where the admin API lives: outside /nvr/v1, so it can never be mistaken for the device's API. */
export const ADMIN_PREFIX = '/__admin'
