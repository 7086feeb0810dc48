export * from './errors.js';
export * from './plans.js';
export * from './permissions.js';
export * from './constants.js';
export * from './settings.js';
export * from './auth.js';
export * from './realtime.js';
export * from './users.js';
