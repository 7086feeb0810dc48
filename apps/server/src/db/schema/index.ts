export * from './plans.js';
export * from './companies.js';
export * from './queues.js';
export * from './users.js';
export * from './settings.js';
export * from './auth.js';
export * from './versions.js';
