export { type App, type AppOptions, createApp } from './app.js';
export { type Config, loadConfig, type Role } from './config.js';
