/**
 * The entry of `dist/xrsim-shim.js`: installs the shim with the configuration the host put in
 * `window.__xrsimConfig` just before it (both run as init scripts, before any page script).
 */
import { install } from './index.js';
import type { ShimConfig } from '../protocol.js';

const holder = window as unknown as { __xrsimConfig?: ShimConfig };
const config = holder.__xrsimConfig;
delete holder.__xrsimConfig;
if (config) install(config);
